# The real main window: databases, layout, errors inline; and the whole explorer flow in it.
hourglass_add_ui_test(tst_ui_window ${CMAKE_CURRENT_LIST_DIR}/tst_ui_window.cpp)
hourglass_add_ui_test(tst_ui_flow ${CMAKE_CURRENT_LIST_DIR}/tst_ui_flow.cpp)
