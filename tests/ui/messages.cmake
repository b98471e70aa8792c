# The message list: windowed model, countdown texts, delegate and ticker, panel.
hourglass_add_ui_test(tst_ui_messages ${CMAKE_CURRENT_LIST_DIR}/tst_ui_messages.cpp)
