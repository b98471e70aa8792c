"""ServiceBusAdministrationClient (ATOM over HTTPS): namespace properties, and create, get,
update, list and delete of queues, topics, subscriptions and rules, with runtime properties."""
import datetime
import unittest

from azure.core.exceptions import ResourceNotFoundError
from azure.servicebus import ServiceBusMessage
from azure.servicebus.management import (CorrelationRuleFilter, SqlRuleAction, SqlRuleFilter,
                                         TrueRuleFilter)

from sdk_env import MAX_WAIT, EndpointTestCase, receive_until, unique_name


class AdministrationTests(EndpointTestCase):
    def test_namespace_properties(self):
        properties = self.admin.get_namespace_properties()
        self.assertTrue(properties.name)
        self.assertEqual(properties.messaging_sku, "Standard")
        self.assertIsNotNone(properties.created_at_utc)

    def test_queue_create_get_update_list_delete(self):
        name = unique_name("queue")
        created = self.admin.create_queue(
            name, max_delivery_count=4, lock_duration=datetime.timedelta(seconds=45),
            dead_lettering_on_message_expiration=True)
        self.assertEqual(created.name, name)
        queue = self.admin.get_queue(name)
        self.assertEqual(queue.max_delivery_count, 4)
        self.assertEqual(queue.lock_duration, datetime.timedelta(seconds=45))
        self.assertTrue(queue.dead_lettering_on_message_expiration)
        self.assertFalse(queue.requires_session)  # defaulted by the endpoint

        queue.max_delivery_count = 9
        self.admin.update_queue(queue)
        self.assertEqual(self.admin.get_queue(name).max_delivery_count, 9)

        self.assertIn(name, [q.name for q in self.admin.list_queues()])
        self.assertIn(name, [q.name for q in self.admin.list_queues_runtime_properties()])
        self.admin.delete_queue(name)
        with self.assertRaises(ResourceNotFoundError):
            self.admin.get_queue(name)
        self.assertNotIn(name, [q.name for q in self.admin.list_queues()])

    def test_queue_runtime_properties_count_messages(self):
        queue = self.make_queue()
        in_an_hour = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
        with self.client.get_queue_sender(queue) as sender:
            sender.send_messages([ServiceBusMessage(f"m{i}") for i in range(3)])
            sender.schedule_messages(ServiceBusMessage("scheduled"), in_an_hour)
        with self.client.get_queue_receiver(queue, max_wait_time=MAX_WAIT) as receiver:
            [first] = receive_until(receiver, 1)
            receiver.dead_letter_message(first, reason="counted")
        runtime = self.admin.get_queue_runtime_properties(queue)
        self.assertEqual(runtime.name, queue)
        self.assertEqual(runtime.active_message_count, 2)
        self.assertEqual(runtime.dead_letter_message_count, 1)
        self.assertEqual(runtime.scheduled_message_count, 1)
        self.assertEqual(runtime.total_message_count, 4)
        self.assertGreater(runtime.size_in_bytes, 0)
        self.assertIsNotNone(runtime.created_at_utc)
        self.assertIsNotNone(runtime.updated_at_utc)

    def test_topic_and_subscription_create_get_update_list_delete(self):
        topic = unique_name("topic")
        self.admin.create_topic(topic, default_message_time_to_live=datetime.timedelta(hours=2))
        self.addCleanup(self._delete_topic_if_there, topic)
        self.assertEqual(self.admin.get_topic(topic).default_message_time_to_live,
                         datetime.timedelta(hours=2))
        properties = self.admin.get_topic(topic)
        properties.default_message_time_to_live = datetime.timedelta(hours=3)
        self.admin.update_topic(properties)
        self.assertEqual(self.admin.get_topic(topic).default_message_time_to_live,
                         datetime.timedelta(hours=3))
        self.assertIn(topic, [t.name for t in self.admin.list_topics()])

        subscription = unique_name("sub")
        self.admin.create_subscription(topic, subscription, max_delivery_count=3)
        got = self.admin.get_subscription(topic, subscription)
        self.assertEqual(got.max_delivery_count, 3)
        got.max_delivery_count = 6
        self.admin.update_subscription(topic, got)
        self.assertEqual(self.admin.get_subscription(topic, subscription).max_delivery_count, 6)
        self.assertEqual([s.name for s in self.admin.list_subscriptions(topic)], [subscription])

        with self.client.get_topic_sender(topic) as sender:
            sender.send_messages([ServiceBusMessage("one"), ServiceBusMessage("two")])
        topic_runtime = self.admin.get_topic_runtime_properties(topic)
        self.assertEqual(topic_runtime.subscription_count, 1)
        self.assertEqual(topic_runtime.scheduled_message_count, 0)
        sub_runtime = self.admin.get_subscription_runtime_properties(topic, subscription)
        self.assertEqual(sub_runtime.active_message_count, 2)
        self.assertEqual(sub_runtime.total_message_count, 2)
        self.assertEqual(
            [s.active_message_count
             for s in self.admin.list_subscriptions_runtime_properties(topic)], [2])

        self.admin.delete_subscription(topic, subscription)
        with self.assertRaises(ResourceNotFoundError):
            self.admin.get_subscription(topic, subscription)
        self.admin.delete_topic(topic)
        with self.assertRaises(ResourceNotFoundError):
            self.admin.get_topic(topic)

    def _delete_topic_if_there(self, topic):
        try:
            self.admin.delete_topic(topic)
        except ResourceNotFoundError:
            pass

    def test_rules_create_get_update_list_delete(self):
        topic = self.make_topic()
        subscription = self.make_subscription(topic)
        [default] = self.admin.list_rules(topic, subscription)
        self.assertEqual(default.name, "$Default")
        self.assertIsInstance(default.filter, TrueRuleFilter)

        self.admin.create_rule(
            topic, subscription, "by-sql",
            filter=SqlRuleFilter("priority > @min", parameters={"@min": 3}),
            action=SqlRuleAction("SET checked = 'yes'"))
        self.admin.create_rule(
            topic, subscription, "by-correlation",
            filter=CorrelationRuleFilter(correlation_id="order", label="created",
                                         properties={"region": "eu", "attempt": 2}))
        sql = self.admin.get_rule(topic, subscription, "by-sql")
        self.assertIsInstance(sql.filter, SqlRuleFilter)
        # The service keeps the expression and its parameters; this endpoint stores the
        # expression with each parameter written in as a literal. Either filters the same.
        self.assertIn((sql.filter.sql_expression, sql.filter.parameters or {}),
                      [("priority > @min", {"@min": 3}), ("priority > 3", {})])
        self.assertIsInstance(sql.action, SqlRuleAction)
        self.assertEqual(sql.action.sql_expression, "SET checked = 'yes'")
        correlation = self.admin.get_rule(topic, subscription, "by-correlation")
        self.assertIsInstance(correlation.filter, CorrelationRuleFilter)
        self.assertEqual(correlation.filter.correlation_id, "order")
        self.assertEqual(correlation.filter.label, "created")
        self.assertEqual(correlation.filter.properties, {"region": "eu", "attempt": 2})

        sql.filter = SqlRuleFilter("priority > 7")
        self.admin.update_rule(topic, subscription, sql)
        self.assertEqual(self.admin.get_rule(topic, subscription, "by-sql").filter.sql_expression,
                         "priority > 7")
        self.assertEqual(sorted(r.name for r in self.admin.list_rules(topic, subscription)),
                         ["$Default", "by-correlation", "by-sql"])
        self.admin.delete_rule(topic, subscription, "by-sql")
        with self.assertRaises(ResourceNotFoundError):
            self.admin.get_rule(topic, subscription, "by-sql")
        self.assertEqual(sorted(r.name for r in self.admin.list_rules(topic, subscription)),
                         ["$Default", "by-correlation"])


if __name__ == "__main__":
    unittest.main()
