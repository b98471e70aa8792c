# The message detail panel: body formatting and the panel over a real broker.
hourglass_add_ui_test(tst_ui_detail ${CMAKE_CURRENT_LIST_DIR}/tst_ui_detail.cpp)
