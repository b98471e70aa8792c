# Scenario playback in the window (issue 4): the gallery of bundled scenarios, the player (a
# session that moves the scenario's clock step by step) and its dock panel.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioController.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioController.h
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioGallery.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioGallery.h
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioPanel.h
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioSession.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioSession.h
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioStepText.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioStepText.h
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioStepsModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ScenarioStepsModel.h
)

# The bundled scenarios, embedded where the gallery reads them (the app and the UI tests both
# link this library).
qt_add_resources(hourglass_ui bundled_scenarios
  PREFIX /scenarios
  BASE ${CMAKE_SOURCE_DIR}/resources/scenarios
  FILES
    ${CMAKE_SOURCE_DIR}/resources/scenarios/poison-message.json
    ${CMAKE_SOURCE_DIR}/resources/scenarios/reply-queues.json
    ${CMAKE_SOURCE_DIR}/resources/scenarios/traffic-spike.json
)
