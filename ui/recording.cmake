# Recording a scenario file from what the user does in the window (issue 4).
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioRecording.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioRecording.h
)
