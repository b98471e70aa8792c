# Recording a scenario in the window, saving it, and playing it back to the same state.
hourglass_add_ui_test(tst_ui_recording ${CMAKE_CURRENT_LIST_DIR}/tst_ui_recording.cpp)
