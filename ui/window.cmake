# The main window and its message bar.
target_sources(hourglass_ui PRIVATE
  MainWindow.cpp
  MainWindow.h
  MessageBar.cpp
  MessageBar.h
)
