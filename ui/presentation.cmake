# Presentation mode (issue 4): one entity full screen, large type, live counts, countdowns, chart.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/PresentationCountTiles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PresentationCountTiles.h
  ${CMAKE_CURRENT_LIST_DIR}/PresentationHeader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PresentationHeader.h
  ${CMAKE_CURRENT_LIST_DIR}/PresentationStops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PresentationStops.h
  ${CMAKE_CURRENT_LIST_DIR}/PresentationView.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PresentationView.h
)
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/PresentationMode.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PresentationMode.h
)
