# Scenario playback: the player on its own, and a scenario played in the real window.
hourglass_add_ui_test(tst_ui_scenario_player ${CMAKE_CURRENT_LIST_DIR}/tst_ui_scenario_player.cpp)
hourglass_add_ui_test(tst_ui_scenario_window ${CMAKE_CURRENT_LIST_DIR}/tst_ui_scenario_window.cpp)
