# The namespace tree panel: its model, icons and widget.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/EntityIcons.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EntityIcons.h
  ${CMAKE_CURRENT_LIST_DIR}/NamespaceTreeModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/NamespaceTreeModel.h
  ${CMAKE_CURRENT_LIST_DIR}/NamespaceTreePanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/NamespaceTreePanel.h
)
