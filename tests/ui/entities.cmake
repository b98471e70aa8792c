# Entity management: the duration field, property form and entity/namespace dialogs; then the
# actions (rules, delete with confirmation, emulator config.json export and import).
hourglass_add_ui_test(tst_ui_entities ${CMAKE_CURRENT_LIST_DIR}/tst_ui_entities.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EntitiesTestEnv.h)
hourglass_add_ui_test(tst_ui_entity_actions ${CMAKE_CURRENT_LIST_DIR}/tst_ui_entity_actions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EntitiesTestEnv.h)
