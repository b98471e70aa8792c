#pragma once
// A real `hourglass serve` for the window's tests: started as its own process on free ports
// (the plain one, and with `tls` a TLS one whose certificate authority lives in a temporary
// folder), read until it has printed its connection strings, and stopped (SIGTERM) when this
// object goes. The window reaches it as it would reach any namespace: through a connection
// string.

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace namespaces_test {

class ServeProcess {
public:
    enum class Transport { Plain, Tls };

    explicit ServeProcess(Transport transport)
        : m_transport(transport) {
        QStringList arguments{QStringLiteral("serve"), QStringLiteral("--port"),
                              QStringLiteral("0"), QStringLiteral("--db"),
                              m_dir.filePath(QStringLiteral("served.db"))};
        if (transport == Transport::Tls)
            arguments << QStringLiteral("--tls") << QStringLiteral("--tls-port")
                      << QStringLiteral("0") << QStringLiteral("--tls-dir")
                      << m_dir.filePath(QStringLiteral("tls"));
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(QStringLiteral(HOURGLASS_BINARY), arguments);
    }

    ~ServeProcess() {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(20000))
            m_process.kill();
        m_process.waitForFinished(5000);
    }

    // Waits (turning the event loop) until serve has printed the strings; false when it ended
    // or took too long (`problem()` says what it printed).
    bool waitUntilReady(int timeoutMs = 30000) {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs) {
            m_out += m_process.readAllStandardOutput();
            if (parse())
                return true;
            if (m_process.state() == QProcess::NotRunning)
                return false;
            QTest::qWait(20);
        }
        return false;
    }

    // The string the window is given: the TLS one (no emulator flag) or the emulator-style one.
    QString connectionText() const { return m_connection; }
    // The CA file a client trusts for the TLS port; empty for plain.
    QString caFile() const { return m_caFile; }
    QString problem() { return QString::fromUtf8(m_out + m_process.readAllStandardError()); }

private:
    bool parse() {
        const QString text = QString::fromUtf8(m_out);
        const QString label = m_transport == Transport::Tls
                                  ? QStringLiteral("TLS connection string: ")
                                  : QStringLiteral("Connection string: ");
        const QRegularExpression line(QStringLiteral("^") + QRegularExpression::escape(label) +
                                          QStringLiteral("(\\S+)$"),
                                      QRegularExpression::MultilineOption);
        const auto found = line.match(text);
        if (!found.hasMatch())
            return false;
        m_connection = found.captured(1);
        if (m_transport == Transport::Tls) {
            const auto ca = QRegularExpression(QStringLiteral("^Certificate authority: (\\S+)$"),
                                               QRegularExpression::MultilineOption)
                                .match(text);
            if (!ca.hasMatch())
                return false;
            m_caFile = ca.captured(1);
        }
        return true;
    }

    Transport m_transport;
    QTemporaryDir m_dir;
    QProcess m_process;
    QByteArray m_out;
    QString m_connection;
    QString m_caFile;
};

} // namespace namespaces_test
