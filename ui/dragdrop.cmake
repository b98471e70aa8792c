# Drag and drop of messages: what a drag carries, the drag sources on the message tables, and the
# namespace tree as a drop target (messages moved, copied or resubmitted; files sent).
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/MessageDrag.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageDrag.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageDragFiles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageDragFiles.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageDragSource.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageDragSource.h
  ${CMAKE_CURRENT_LIST_DIR}/SelectionPrefetch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SelectionPrefetch.h
  ${CMAKE_CURRENT_LIST_DIR}/NamespaceTreeDrop.cpp
)
