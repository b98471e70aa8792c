# The message list: windowed model, countdown delegate and ticker, and the panel around them.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/CountdownDelegate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CountdownDelegate.h
  ${CMAKE_CURRENT_LIST_DIR}/CountdownTicker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CountdownTicker.h
  ${CMAKE_CURRENT_LIST_DIR}/DurationText.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DurationText.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageColumns.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageColumns.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageListModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageListModel.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageListPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageListPanel.h
)
