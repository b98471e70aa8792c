# The message list's find tools and actions: filter matcher, background search, list actions.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/MessageListActions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageListActions.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageFilterBar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageFilterBar.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageMatcher.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageMatcher.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageSearch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageSearch.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageSelection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageSelection.h
)
