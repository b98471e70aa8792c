# Peek and locks (issue 3, items 5, 6 and 8 for locks): the Peek panel, the Lock panel with its
# held-lock bookkeeping, auto-renew, settlement dialogs and bulk settlement.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/HeldLocks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/HeldLocks.h
  ${CMAKE_CURRENT_LIST_DIR}/LockAutoRenewer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/LockAutoRenewer.h
  ${CMAKE_CURRENT_LIST_DIR}/LockBulkRun.cpp
  ${CMAKE_CURRENT_LIST_DIR}/LockBulkRun.h
  ${CMAKE_CURRENT_LIST_DIR}/LockPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/LockPanel.h
  ${CMAKE_CURRENT_LIST_DIR}/LockSettler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/LockSettler.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageTable.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageTable.h
  ${CMAKE_CURRENT_LIST_DIR}/PeekPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PeekPanel.h
  ${CMAKE_CURRENT_LIST_DIR}/SettleDialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SettleDialog.h
)
