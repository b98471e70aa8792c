#pragma once
// A session's state (S4: binary, up to the entity's maximum message size) as an operator reads
// and types it: UTF-8 text, JSON, or hex. Pure functions of their arguments (no widgets), so the
// tests pin down every refusal: bad input gets a sentence and no bytes, and nothing is written.

#include "hourglass/Status.h"

#include <QByteArray>
#include <QString>

namespace hourglass::ui {

enum class StateFormat { Text = 0, Json = 1, Hex = 2 };

// The format a state opens in: JSON when it parses as a JSON object or array, text when it is
// UTF-8 without control characters other than whitespace, else hex.
StateFormat bestStateFormat(const QByteArray& state);
// The state shown in a format: text as UTF-8, JSON indented, hex as spaced byte pairs
// ("7b 22 61 22 7d", 16 to a line) so that the same text can be edited and read back. ok is
// false (and text says why) when the bytes are not of that kind (JSON that does not parse).
struct StateText {
    bool ok = true;
    QString text;
};
StateText stateToText(const QByteArray& state, StateFormat format);
// What the operator typed, read back as bytes in the chosen format: text as UTF-8; JSON checked
// (InvalidArgument with the parser's error and offset) and stored as typed; hex as pairs of hex
// digits, spaces and line breaks ignored, "0x" prefixes allowed (InvalidArgument naming the
// first bad character or an odd count of digits).
Result<QByteArray> stateFromText(const QString& text, StateFormat format);

} // namespace hourglass::ui
