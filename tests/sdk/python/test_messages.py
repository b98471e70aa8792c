"""Queues through ServiceBusClient: send, batches, both receive modes, every settlement,
deferral, scheduling, peek, lock renewal and the dead-letter sub-queue."""
import datetime
import unittest

from azure.servicebus import ServiceBusMessage, ServiceBusReceiveMode, ServiceBusSubQueue

from sdk_env import MAX_WAIT, EndpointTestCase, receive_until


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc)


class MessageTests(EndpointTestCase):
    def test_send_and_receive_in_peek_lock_keeps_properties(self):
        queue = self.make_queue()
        sent = ServiceBusMessage(
            "hello from python", message_id="m-1", correlation_id="c-1", subject="greeting",
            content_type="text/plain", application_properties={"count": 7, "kind": "test"})
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages(sent)
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            [message] = receive_until(receiver, 1)
            self.assertEqual(str(message), "hello from python")
            self.assertEqual(message.message_id, "m-1")
            self.assertEqual(message.correlation_id, "c-1")
            self.assertEqual(message.subject, "greeting")
            self.assertEqual(message.content_type, "text/plain")
            self.assertEqual(message.application_properties[b"count"], 7)
            self.assertEqual(message.application_properties[b"kind"], b"test")
            self.assertEqual(message.delivery_count, 0)
            self.assertIsNotNone(message.lock_token)
            self.assertGreater(message.locked_until_utc, utc_now())
            self.assertGreater(message.sequence_number, 0)
            receiver.complete_message(message)
            # Completed: nothing is left to peek.
            self.assertEqual(receiver.peek_messages(max_message_count=5), [])

    def test_batch_send_delivers_every_message(self):
        queue = self.make_queue()
        with self.client.get_queue_sender(queue) as sender:
            batch = sender.create_message_batch()
            for index in range(5):
                batch.add_message(ServiceBusMessage(f"batch-{index}"))
            self.assertEqual(len(batch), 5)
            sender.send_messages(batch)
            sender.send_messages([ServiceBusMessage("list-0"), ServiceBusMessage("list-1")])
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            received = receive_until(receiver, 7)
            self.assertEqual([str(m) for m in received],
                             [f"batch-{i}" for i in range(5)] + ["list-0", "list-1"])
            for message in received:
                receiver.complete_message(message)

    def test_receive_and_delete_removes_the_message(self):
        queue = self.make_queue()
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages([ServiceBusMessage("once"), ServiceBusMessage("twice")])
        with self.client.get_queue_receiver(
                queue, receive_mode=ServiceBusReceiveMode.RECEIVE_AND_DELETE,
                max_wait_time=MAX_WAIT) as receiver:
            received = receive_until(receiver, 2)
            self.assertEqual([str(m) for m in received], ["once", "twice"])
            self.assertEqual(receiver.peek_messages(max_message_count=5), [])
            with self.assertRaises(ValueError):
                receiver.complete_message(received[0])

    def test_abandon_makes_the_message_available_again(self):
        queue = self.make_queue()
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages(ServiceBusMessage("again"))
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            [first] = receive_until(receiver, 1)
            receiver.abandon_message(first)
            [second] = receive_until(receiver, 1)
            self.assertEqual(second.sequence_number, first.sequence_number)
            self.assertEqual(second.delivery_count, 1)
            receiver.complete_message(second)

    def test_defer_then_receive_deferred_and_complete(self):
        queue = self.make_queue()
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages(ServiceBusMessage("later"))
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            [message] = receive_until(receiver, 1)
            receiver.defer_message(message)
            # Deferred: not delivered again, but still there.
            self.assertEqual(receiver.receive_messages(max_wait_time=1), [])
            [peeked] = receiver.peek_messages(max_message_count=5)
            self.assertEqual(peeked.state.name, "DEFERRED")
            [deferred] = receiver.receive_deferred_messages([message.sequence_number])
            self.assertEqual(str(deferred), "later")
            self.assertIsNotNone(deferred.lock_token)
            # A deferred message settles through $management (update-disposition).
            receiver.complete_message(deferred)
            self.assertEqual(receiver.peek_messages(max_message_count=5), [])

    def test_dead_letter_goes_to_the_dead_letter_sub_queue(self):
        queue = self.make_queue()
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages(ServiceBusMessage("poison"))
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            [message] = receive_until(receiver, 1)
            receiver.dead_letter_message(
                message, reason="bad-input", error_description="cannot parse it")
            self.assertEqual(receiver.peek_messages(max_message_count=5), [])
        with self.client.get_queue_receiver(
                queue, sub_queue=ServiceBusSubQueue.DEAD_LETTER,
                max_wait_time=MAX_WAIT) as dead_letters:
            [dead] = receive_until(dead_letters, 1)
            self.assertEqual(str(dead), "poison")
            self.assertEqual(dead.dead_letter_reason, "bad-input")
            self.assertEqual(dead.dead_letter_error_description, "cannot parse it")
            self.assertEqual(dead.sequence_number, message.sequence_number)
            dead_letters.complete_message(dead)
            self.assertEqual(dead_letters.peek_messages(max_message_count=5), [])

    def test_schedule_and_cancel(self):
        queue = self.make_queue()
        in_an_hour = utc_now() + datetime.timedelta(hours=1)
        with self.client.get_queue_sender(queue) as sender:
            kept, cancelled = sender.schedule_messages(
                [ServiceBusMessage("kept"), ServiceBusMessage("cancelled")], in_an_hour)
            self.assertNotEqual(kept, cancelled)
            with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
                peeked = receiver.peek_messages(max_message_count=5)
                self.assertEqual(sorted(m.sequence_number for m in peeked),
                                 sorted([kept, cancelled]))
                for message in peeked:
                    self.assertEqual(message.state.name, "SCHEDULED")
                    self.assertEqual(
                        message.scheduled_enqueue_time_utc.replace(microsecond=0),
                        in_an_hour.replace(microsecond=0))
                sender.cancel_scheduled_messages(cancelled)
                [left] = receiver.peek_messages(max_message_count=5)
                self.assertEqual(left.sequence_number, kept)
                # Scheduled: not delivered before its time.
                self.assertEqual(receiver.receive_messages(max_wait_time=1), [])
            sender.cancel_scheduled_messages(kept)

    def test_a_message_scheduled_shortly_arrives_when_due(self):
        queue = self.make_queue()
        with self.client.get_queue_sender(queue) as sender:
            sender.schedule_messages(ServiceBusMessage("soon"),
                                     utc_now() + datetime.timedelta(seconds=2))
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            [message] = receive_until(receiver, 1, seconds=8)
            self.assertEqual(str(message), "soon")
            receiver.complete_message(message)

    def test_peek_in_sequence_order_from_a_sequence_number(self):
        queue = self.make_queue()
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages([ServiceBusMessage(f"peek-{i}") for i in range(3)])
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            peeked = receiver.peek_messages(max_message_count=10)
            self.assertEqual([str(m) for m in peeked], ["peek-0", "peek-1", "peek-2"])
            numbers = [m.sequence_number for m in peeked]
            self.assertEqual(numbers, sorted(numbers))
            later = receiver.peek_messages(max_message_count=10, sequence_number=numbers[1])
            self.assertEqual([str(m) for m in later], ["peek-1", "peek-2"])
            # Peeking locks nothing: all three are still delivered.
            self.assertEqual(len(receive_until(receiver, 3)), 3)

    def test_renew_lock_moves_locked_until(self):
        queue = self.make_queue(lock_duration=datetime.timedelta(seconds=30))
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages(ServiceBusMessage("hold"))
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            [message] = receive_until(receiver, 1)
            before = message.locked_until_utc
            renewed = receiver.renew_message_lock(message)
            self.assertGreaterEqual(renewed, before)
            self.assertGreater(renewed, utc_now() + datetime.timedelta(seconds=20))
            self.assertEqual(message.locked_until_utc, renewed)
            receiver.complete_message(message)


if __name__ == "__main__":
    unittest.main()
