# The time-control toolbar over a broker on a VirtualClock (and one on the system clock).
hourglass_add_ui_test(tst_ui_timecontrol ${CMAKE_CURRENT_LIST_DIR}/tst_ui_timecontrol.cpp)
