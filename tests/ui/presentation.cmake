# Presentation mode over a real broker on a virtual clock: header, tiles, countdowns, chart, keys.
hourglass_add_ui_test(tst_ui_presentation ${CMAKE_CURRENT_LIST_DIR}/tst_ui_presentation.cpp)
