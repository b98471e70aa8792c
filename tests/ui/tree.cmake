# The namespace tree: model structure, incremental updates, badges, countdowns and the panel.
hourglass_add_ui_test(tst_ui_tree ${CMAKE_CURRENT_LIST_DIR}/tst_ui_tree.cpp)
