#pragma once
// The SQL filter language as a component (service-bus-rules.md R3, R5): the language in
// tst_engine_sql_filter.cpp, its errors in tst_engine_sql_filter_errors.cpp.

#include <QObject>

class TestSqlFilter : public QObject {
    Q_OBJECT

private slots:
    void R3_filters_data();
    void R3_filters();
    void R3_documented_examples_data();
    void R3_documented_examples();
    void R3_missing_broker_fields_read_as_null();
    void R3_in_with_null_and_mixed_items_data();
    void R3_in_with_null_and_mixed_items();
    void R3_property_values_list_a_name_once_ignoring_case();
    void R5_parse_error_positions_data();
    void R5_parse_error_positions();
    void R5_parse_error_shape();
    void R5_parse_error_location_read_back_data();
    void R5_parse_error_location_read_back();
    void R5_filter_text_limit();
    void R5_evaluation_error_is_not_false();
    void R5_deep_nesting_within_limit();
    void R5_nesting_past_the_limit_is_refused();
};
