# Peek and locks on a real broker with a virtual clock: peek without side effects, receive
# modes, settlement, lost locks, several receivers, auto-renew, bulk settlement.
hourglass_add_ui_test(tst_ui_peek ${CMAKE_CURRENT_LIST_DIR}/tst_ui_peek.cpp)
hourglass_add_ui_test(tst_ui_lock ${CMAKE_CURRENT_LIST_DIR}/tst_ui_lock.cpp)
hourglass_add_ui_test(tst_ui_lock_bulk ${CMAKE_CURRENT_LIST_DIR}/tst_ui_lock_bulk.cpp)
