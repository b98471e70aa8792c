# The main window, its menus, the entity workspace (tabs over one detail panel), the message bar,
# themes and the shortcuts list.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/EntityWorkspace.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EntityWorkspace.h
  ${CMAKE_CURRENT_LIST_DIR}/MainWindow.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MainWindow.h
  ${CMAKE_CURRENT_LIST_DIR}/MainWindowMenus.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageBar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageBar.h
  ${CMAKE_CURRENT_LIST_DIR}/ShortcutsDialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ShortcutsDialog.h
  ${CMAKE_CURRENT_LIST_DIR}/Theme.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Theme.h
)
