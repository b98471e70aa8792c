# The message list's find tools and actions: matcher, background search, sort, bulk actions.
hourglass_add_ui_test(tst_ui_listtools ${CMAKE_CURRENT_LIST_DIR}/tst_ui_listtools.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ListToolsFixture.h)
hourglass_add_ui_test(tst_ui_listactions ${CMAKE_CURRENT_LIST_DIR}/tst_ui_listactions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ListToolsFixture.h)
