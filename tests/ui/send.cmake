# The send dialog over a real broker: every property, TTL, schedule, repeat, errors; templates.
hourglass_add_ui_test(tst_ui_send ${CMAKE_CURRENT_LIST_DIR}/tst_ui_send.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SendTestEnv.h)
hourglass_add_ui_test(tst_ui_send_templates ${CMAKE_CURRENT_LIST_DIR}/tst_ui_send_templates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SendTestEnv.h)
