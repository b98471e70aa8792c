#pragma once
// The benchmark's result table: one row per figure with its value, the baseline measured in the
// same run (raw SQLite doing the same writes) as a ratio, the target, and PASS/MISS.

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace hourglass::bench {

struct Figure {
    enum class Better { Higher, Lower };

    Figure(QString id, QString name, double value, QString unit, Better better = Better::Higher)
        : id(std::move(id))
        , name(std::move(name))
        , value(value)
        , unit(std::move(unit))
        , better(better) {}

    QString id; // "1a", "2", ...: the smoke test checks that every id was printed
    QString name;
    double value = 0;
    QString unit;
    Better better = Better::Higher;
    std::optional<double> baseline; // same unit as value
    QString baselineName;           // what the baseline is
    std::optional<double> target;   // in the unit of value, or of the ratio when targetIsRatio
    bool targetIsRatio = false;     // the target applies to value / baseline

    std::optional<double> ratio() const;
    // "PASS", "MISS", or "-" when there is no target.
    QString verdict() const;
};

class BenchReport {
public:
    void add(const Figure& figure);
    void note(const QString& line);
    // Prints the table and the notes to stdout; returns how many targets were missed.
    int print() const;

private:
    QList<Figure> m_figures;
    QStringList m_notes;
};

} // namespace hourglass::bench
