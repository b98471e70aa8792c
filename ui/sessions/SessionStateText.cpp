#include "sessions/SessionStateText.h"

#include "common/BodyFormatter.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

namespace hourglass::ui {

namespace {

constexpr int kHexBytesPerLine = 16;

bool isReadableText(const QByteArray& state) {
    if (!isValidUtf8(state))
        return false;
    for (const char c : state) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 && c != '\n' && c != '\r' && c != '\t')
            return false;
    }
    return true;
}

int hexValue(QChar c) {
    if (c >= QLatin1Char('0') && c <= QLatin1Char('9'))
        return c.unicode() - '0';
    const QChar lower = c.toLower();
    if (lower >= QLatin1Char('a') && lower <= QLatin1Char('f'))
        return lower.unicode() - 'a' + 10;
    return -1;
}

} // namespace

StateFormat bestStateFormat(const QByteArray& state) {
    const QByteArray trimmed = state.trimmed();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
        QJsonParseError error;
        QJsonDocument::fromJson(state, &error);
        if (error.error == QJsonParseError::NoError)
            return StateFormat::Json;
    }
    return isReadableText(state) ? StateFormat::Text : StateFormat::Hex;
}

StateText stateToText(const QByteArray& state, StateFormat format) {
    switch (format) {
    case StateFormat::Text:
        return {true, formatText(state).text};
    case StateFormat::Json: {
        const FormattedBody json = formatJson(state);
        return {json.ok, json.text};
    }
    case StateFormat::Hex: {
        QString out;
        for (qsizetype i = 0; i < state.size(); ++i) {
            if (i > 0)
                out += (i % kHexBytesPerLine == 0) ? QLatin1Char('\n') : QLatin1Char(' ');
            out += QStringLiteral("%1").arg(static_cast<unsigned char>(state.at(i)), 2, 16,
                                            QLatin1Char('0'));
        }
        return {true, out};
    }
    }
    return {false, QString()};
}

Result<QByteArray> stateFromText(const QString& text, StateFormat format) {
    switch (format) {
    case StateFormat::Text:
        return text.toUtf8();
    case StateFormat::Json: {
        const QByteArray bytes = text.toUtf8();
        QJsonParseError error;
        QJsonDocument::fromJson(bytes, &error);
        if (error.error != QJsonParseError::NoError)
            return makeError(ErrorCode::InvalidArgument,
                             QObject::tr("The state is not JSON: %1 at offset %2")
                                 .arg(error.errorString())
                                 .arg(error.offset));
        return bytes;
    }
    case StateFormat::Hex: {
        // Tokens split at spaces, line breaks, commas and colons; each may start with "0x".
        static const QRegularExpression separators(QStringLiteral("[\\s,:]+"));
        QString digits;
        for (QString token : text.split(separators, Qt::SkipEmptyParts)) {
            if (token.startsWith(QStringLiteral("0x"), Qt::CaseInsensitive))
                token = token.mid(2);
            digits += token;
        }
        QByteArray out;
        for (qsizetype i = 0; i < digits.size(); ++i) {
            if (hexValue(digits.at(i)) < 0)
                return makeError(
                    ErrorCode::InvalidArgument,
                    QObject::tr("The state is not hex: '%1' is not a hex digit").arg(digits.at(i)));
        }
        if (digits.size() % 2 != 0)
            return makeError(ErrorCode::InvalidArgument,
                             QObject::tr("The state is not hex: an odd number of hex digits "
                                         "(each byte takes two)"));
        for (qsizetype i = 0; i < digits.size(); i += 2)
            out.append(char(hexValue(digits.at(i)) * 16 + hexValue(digits.at(i + 1))));
        return out;
    }
    }
    return makeError(ErrorCode::InvalidArgument, QObject::tr("Unknown state format"));
}

} // namespace hourglass::ui
