"""Topics whose subscriptions filter with SQL and correlation rules made through the
administration client, and session queues with their state and lock."""
import datetime
import unittest

from azure.servicebus import NEXT_AVAILABLE_SESSION, ServiceBusMessage
from azure.servicebus.exceptions import SessionCannotBeLockedError
from azure.servicebus.management import CorrelationRuleFilter, SqlRuleFilter

from sdk_env import MAX_WAIT, EndpointTestCase, receive_until


def drain(client, topic, subscription, expected):
    """The bodies a subscription holds, completed; waits for `expected` of them at most."""
    with client.get_subscription_receiver(topic, subscription, max_wait_time=MAX_WAIT) as receiver:
        received = receive_until(receiver, expected)
        for message in received:
            receiver.complete_message(message)
        # Nothing beyond what was expected.
        received += receiver.receive_messages(max_wait_time=1)
        return sorted(str(m) for m in received)


class TopicTests(EndpointTestCase):
    def test_sql_and_correlation_rules_route_messages(self):
        topic = self.make_topic()
        everything = self.make_subscription(topic)
        red = self.make_subscription(topic)
        orders = self.make_subscription(topic)
        for subscription, rule_filter in (
                (red, SqlRuleFilter("color = @color AND size > 2", parameters={"@color": "red"})),
                (orders, CorrelationRuleFilter(correlation_id="order",
                                               properties={"region": "eu"}))):
            self.admin.delete_rule(topic, subscription, "$Default")
            self.admin.create_rule(topic, subscription, "only", filter=rule_filter)

        with self.client.get_topic_sender(topic) as sender:
            sender.send_messages([
                ServiceBusMessage("red-big", application_properties={"color": "red", "size": 5}),
                ServiceBusMessage("red-small", application_properties={"color": "red", "size": 1}),
                ServiceBusMessage("blue-big", application_properties={"color": "blue", "size": 9}),
                ServiceBusMessage("order-eu", correlation_id="order",
                                  application_properties={"region": "eu"}),
                ServiceBusMessage("order-us", correlation_id="order",
                                  application_properties={"region": "us"}),
            ])

        self.assertEqual(drain(self.client, topic, red, 1), ["red-big"])
        self.assertEqual(drain(self.client, topic, orders, 1), ["order-eu"])
        self.assertEqual(drain(self.client, topic, everything, 5),
                         ["blue-big", "order-eu", "order-us", "red-big", "red-small"])


class SessionTests(EndpointTestCase):
    def test_session_receiver_gets_its_session_with_state_and_lock(self):
        queue = self.make_queue(requires_session=True, lock_duration=datetime.timedelta(seconds=30))
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages([
                ServiceBusMessage("a-1", session_id="alpha"),
                ServiceBusMessage("b-1", session_id="beta"),
                ServiceBusMessage("a-2", session_id="alpha"),
            ])
        with self.client.get_queue_receiver(queue, session_id="alpha",
                                            max_wait_time=MAX_WAIT) as receiver:
            session = receiver.session
            self.assertEqual(session.session_id, "alpha")
            self.assertIsNone(session.get_state())
            session.set_state(b"step-1")
            self.assertEqual(session.get_state(), b"step-1")
            before = session.locked_until_utc
            self.assertIsNotNone(before)
            renewed = session.renew_lock()
            self.assertGreaterEqual(renewed, before)
            received = receive_until(receiver, 2)
            self.assertEqual([str(m) for m in received], ["a-1", "a-2"])
            for message in received:
                self.assertEqual(message.session_id, "alpha")
                receiver.complete_message(message)
            self.assertEqual(receiver.receive_messages(max_wait_time=1), [])
        with self.client.get_queue_receiver(queue, session_id=NEXT_AVAILABLE_SESSION,
                                            max_wait_time=MAX_WAIT) as receiver:
            self.assertEqual(receiver.session.session_id, "beta")
            [message] = receive_until(receiver, 1)
            self.assertEqual(str(message), "b-1")
            receiver.complete_message(message)
        # The state outlives the receiver that set it.
        with self.client.get_queue_receiver(queue, session_id="alpha",
                                            max_wait_time=MAX_WAIT) as receiver:
            self.assertEqual(receiver.session.get_state(), b"step-1")
            receiver.session.set_state(None)
            self.assertIsNone(receiver.session.get_state())

    def test_a_held_session_is_refused_and_deferral_works_inside_it(self):
        queue = self.make_queue(requires_session=True)
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages(ServiceBusMessage("held", session_id="only"))
        with self.client.get_queue_receiver(queue, session_id="only",
                                            max_wait_time=MAX_WAIT) as holder:
            with self.assertRaises(SessionCannotBeLockedError):
                with self.client.get_queue_receiver(queue, session_id="only",
                                                    max_wait_time=1) as second:
                    second.receive_messages(max_wait_time=1)
            [message] = receive_until(holder, 1)
            holder.defer_message(message)
            # Received again by sequence number through the session (its lock token read from
            # the message's delivery annotations), then settled through $management.
            [deferred] = holder.receive_deferred_messages([message.sequence_number])
            self.assertEqual(str(deferred), "held")
            self.assertEqual(deferred.session_id, "only")
            self.assertIsNotNone(deferred.lock_token)
            holder.complete_message(deferred)
            self.assertEqual(holder.peek_messages(max_message_count=5), [])


if __name__ == "__main__":
    unittest.main()
