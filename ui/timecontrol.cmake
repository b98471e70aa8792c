# The time-control toolbar: the engine clock's time, pause/play, speed, jump ahead, real time.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/TimeControlBar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/TimeControlBar.h
)
