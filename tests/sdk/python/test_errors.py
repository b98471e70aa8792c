"""What the SDK raises when the endpoint refuses: a missing entity, a lock that is gone, a wrong
key, and the administration client's HTTP errors."""
import datetime
import time
import unittest

from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError
from azure.servicebus import ServiceBusMessage
from azure.servicebus.exceptions import (MessageAlreadySettled, MessageLockLostError,
                                         MessageNotFoundError, ServiceBusAuthenticationError,
                                         ServiceBusCommunicationError, ServiceBusError)

from sdk_env import (CONNECTION_STRING, MAX_WAIT, EndpointTestCase, administration_client,
                     receive_until, service_bus_client, unique_name, with_key)

WRONG_KEY = "bm90IHRoZSBrZXkgb2YgdGhpcyBuYW1lc3BhY2U="


class ErrorTests(EndpointTestCase):
    # A link to a missing entity is refused with amqp:not-found. SDK 7.8.2 raises
    # MessagingEntityNotFoundError for that condition only from a management answer: a refused
    # attach reaches it as uAMQP's LinkDetach, a connection error, so it raises
    # ServiceBusCommunicationError carrying the condition (the same against Azure).
    def assertNotFound(self, raised):
        self.assertIn("could not be found", str(raised.exception))
        self.assertIn("Error condition: ErrorCodes.NotFound", str(raised.exception))

    def test_sending_to_a_missing_queue_is_not_found(self):
        with self.assertRaises(ServiceBusCommunicationError) as raised:
            with self.client.get_queue_sender(unique_name("missing")) as sender:
                sender.send_messages(ServiceBusMessage("nowhere"))
        self.assertNotFound(raised)

    def test_receiving_from_a_missing_queue_is_not_found(self):
        with self.assertRaises(ServiceBusCommunicationError) as raised:
            with self.client.get_queue_receiver(unique_name("missing"),
                                                max_wait_time=1) as receiver:
                receiver.receive_messages(max_wait_time=1)
        self.assertNotFound(raised)

    def test_a_missing_deferred_message_is_message_not_found(self):
        queue = self.make_queue()
        with self.client.get_queue_receiver(queue, max_wait_time=1) as receiver:
            with self.assertRaises(MessageNotFoundError):
                receiver.receive_deferred_messages([424242])

    def test_a_settled_message_cannot_be_settled_again(self):
        queue = self.make_queue()
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages(ServiceBusMessage("once"))
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            [message] = receive_until(receiver, 1)
            receiver.complete_message(message)
            with self.assertRaises(MessageAlreadySettled):
                receiver.complete_message(message)

    def test_renewing_a_lock_that_ran_out_is_lock_lost(self):
        queue = self.make_queue(lock_duration=datetime.timedelta(seconds=5))
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages(ServiceBusMessage("slow"))
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as first, \
                self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as second:
            [held] = receive_until(first, 1)
            # The lock runs out and the message goes to the next receiver: the first lock is gone.
            [again] = receive_until(second, 1, seconds=10)
            self.assertEqual(again.sequence_number, held.sequence_number)
            with self.assertRaises(MessageLockLostError):
                first.renew_message_lock(held)
            # The client itself refuses to settle a message whose lock it knows ran out.
            with self.assertRaises(ServiceBusError):
                first.complete_message(held)
            second.complete_message(again)

    def test_a_wrong_key_is_refused(self):
        queue = self.make_queue()
        with service_bus_client(with_key(CONNECTION_STRING, WRONG_KEY)) as client:
            started = time.monotonic()
            with self.assertRaises(ServiceBusAuthenticationError):
                with client.get_queue_sender(queue) as sender:
                    sender.send_messages(ServiceBusMessage("refused"))
            self.assertLess(time.monotonic() - started, 20, "the refusal should be prompt")
        with self.client.get_queue_receiver(queue, max_wait_time=1) as receiver:
            self.assertEqual(receiver.peek_messages(max_message_count=5), [])


class AdministrationErrorTests(EndpointTestCase):
    def test_a_missing_queue_is_resource_not_found(self):
        with self.assertRaises(ResourceNotFoundError):
            self.admin.get_queue(unique_name("missing"))
        with self.assertRaises(ResourceNotFoundError):
            self.admin.delete_queue(unique_name("missing"))

    def test_creating_an_existing_queue_is_resource_exists(self):
        queue = self.make_queue()
        with self.assertRaises(ResourceExistsError):
            self.admin.create_queue(queue)

    # 7.8.2 maps only 404 and 409 to their own classes: a 401 is a plain HttpResponseError.
    def test_a_wrong_key_is_unauthorized(self):
        with administration_client(with_key(CONNECTION_STRING, WRONG_KEY)) as admin:
            with self.assertRaises(HttpResponseError) as raised:
                admin.get_namespace_properties()
            self.assertEqual(raised.exception.status_code, 401)
            name = unique_name("refused")
            with self.assertRaises(HttpResponseError) as raised:
                admin.create_queue(name)
            self.assertEqual(raised.exception.status_code, 401)
        with self.assertRaises(ResourceNotFoundError):
            self.admin.get_queue(name)


if __name__ == "__main__":
    unittest.main()
