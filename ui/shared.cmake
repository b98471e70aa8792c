# Pieces shared by several panels: the property editor, the in-hand message table model and
# background bulk jobs with their progress strip, standard icons tinted for the theme, a font that
# is fixed-pitch on any font set.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/BulkJob.cpp
  ${CMAKE_CURRENT_LIST_DIR}/BulkJob.h
  ${CMAKE_CURRENT_LIST_DIR}/BulkProgressBar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/BulkProgressBar.h
  ${CMAKE_CURRENT_LIST_DIR}/FixedPitchFont.cpp
  ${CMAKE_CURRENT_LIST_DIR}/FixedPitchFont.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageViewModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageViewModel.h
  ${CMAKE_CURRENT_LIST_DIR}/PropertyTableEditor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PropertyTableEditor.h
  ${CMAKE_CURRENT_LIST_DIR}/ThemedIcon.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ThemedIcon.h
)
