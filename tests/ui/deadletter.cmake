# The dead-letter panel and message export over a real broker.
hourglass_add_ui_test(tst_ui_deadletter ${CMAKE_CURRENT_LIST_DIR}/tst_ui_deadletter.cpp)
# Message export as JSON: the format, the files, and the dead-letter panel's export.
hourglass_add_ui_test(tst_ui_export ${CMAKE_CURRENT_LIST_DIR}/tst_ui_export.cpp)
