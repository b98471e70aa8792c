# The charts panel over a real broker on a virtual clock: counts history, reasons, PNG export.
hourglass_add_ui_test(tst_ui_charts ${CMAKE_CURRENT_LIST_DIR}/tst_ui_charts.cpp)
