# Drag and drop: the MIME payload, drops on the tree model and through the view's drag events,
# files from the desktop, and the drag sources.
hourglass_add_ui_test(tst_ui_dragdrop ${CMAKE_CURRENT_LIST_DIR}/tst_ui_dragdrop.cpp
                      ${CMAKE_CURRENT_LIST_DIR}/DragDropTestEnv.h)
