# Charts of one entity (Qt Charts): counts over engine time, throughput, dead-letter reasons.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/CountsHistory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CountsHistory.h
  ${CMAKE_CURRENT_LIST_DIR}/EngineTimeCharts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EngineTimeCharts.h
  ${CMAKE_CURRENT_LIST_DIR}/EntityChartsPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EntityChartsPanel.h
)
