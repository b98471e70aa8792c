"""What every test module shares: the endpoint under test, clients for it, and entities made for
one test and deleted after it.

The endpoint comes from the environment (run-python-sdk-tests.sh sets it from what `hourglass
serve` prints):

  HOURGLASS_SB_CONNECTION_STRING  Endpoint=sb://localhost:PORT;SharedAccessKeyName=...;SharedAccessKey=...
                                  (no UseDevelopmentEmulator: this SDK speaks AMQP over TLS only)
  HOURGLASS_SB_CA_FILE            the PEM file of the certificate authority that signed the
                                  endpoint's certificate

The SDK (azure-servicebus 7.8.2 on uAMQP) dials AMQP-over-TLS on 5671 whatever port the
connection string names: its Configuration sets connection_port to the module constant
DEFAULT_AMQPS_PORT and no keyword changes it for plain AMQP-TLS (custom_endpoint_address takes a
port but switches to WebSockets). So that tests can run on a free port next to other test runs,
the constant is set to the string's port here, before any client exists. The administration
client keeps the string's port by itself; it ignores connection_verify given to its constructor
in 7.8.2, so the CA file goes to it through REQUESTS_CA_BUNDLE.
"""
import os
import time
import unittest
import uuid
from urllib.parse import urlparse

import azure.servicebus._common._configuration as _sb_configuration
from azure.servicebus import ServiceBusClient
from azure.servicebus.management import ServiceBusAdministrationClient

# Every receive waits at most this long, so that a failing run ends instead of hanging.
MAX_WAIT = 3


def _setting(name):
    value = os.environ.get(name, "").strip()
    if not value:
        raise RuntimeError(
            f"{name} is not set: run these tests through run-python-sdk-tests.sh, or set "
            "HOURGLASS_SB_CONNECTION_STRING and HOURGLASS_SB_CA_FILE for a running endpoint")
    return value


CONNECTION_STRING = _setting("HOURGLASS_SB_CONNECTION_STRING")
CA_FILE = _setting("HOURGLASS_SB_CA_FILE")
if not os.path.isfile(CA_FILE):
    raise RuntimeError(f"HOURGLASS_SB_CA_FILE={CA_FILE}: no such file")


def _endpoint_port(connection_string):
    for part in connection_string.split(";"):
        key, _, value = part.partition("=")
        if key.strip().lower() == "endpoint":
            return urlparse(value.strip()).port
    raise RuntimeError("HOURGLASS_SB_CONNECTION_STRING has no Endpoint")


PORT = _endpoint_port(CONNECTION_STRING) or 5671
_sb_configuration.DEFAULT_AMQPS_PORT = PORT
os.environ["REQUESTS_CA_BUNDLE"] = CA_FILE


def with_key(connection_string, key):
    """The same string with another SharedAccessKey."""
    parts = []
    for part in connection_string.strip().rstrip(";").split(";"):
        name, _, _ = part.partition("=")
        parts.append(f"SharedAccessKey={key}" if name.lower() == "sharedaccesskey" else part)
    return ";".join(parts)


def without_port(connection_string):
    """The string with its Endpoint's port left out.

    The data plane dials DEFAULT_AMQPS_PORT whatever the string says, but keeps the string's
    host:port in the addresses it compares: uAMQP writes link addresses without the port
    (amqps://localhost/queue), and a session receiver matches the attach it gets back against
    amqps://localhost:PORT/queue, so with a port in the string it never learns the session
    granted to it (next available) nor its locked-until. A string without the port is what this
    SDK needs."""
    parts = []
    for part in connection_string.strip().rstrip(";").split(";"):
        name, _, value = part.partition("=")
        if name.strip().lower() == "endpoint":
            parsed = urlparse(value.strip())
            part = f"{name}={parsed.scheme}://{parsed.hostname}/"
        parts.append(part)
    return ";".join(parts)


def service_bus_client(connection_string=CONNECTION_STRING):
    # No retries: a refused call fails at once instead of after backing off.
    return ServiceBusClient.from_connection_string(
        without_port(connection_string), connection_verify=CA_FILE, retry_total=0)


def administration_client(connection_string=CONNECTION_STRING):
    return ServiceBusAdministrationClient.from_connection_string(connection_string)


def unique_name(kind):
    """Entity names of their own per test, so that runs and tests never share state."""
    return f"py-{kind}-{uuid.uuid4().hex[:10]}"


def receive_until(receiver, count, seconds=MAX_WAIT * 2):
    """Receives until `count` messages came or `seconds` passed (bounded: never hangs)."""
    received = []
    deadline = time.monotonic() + seconds
    while len(received) < count and time.monotonic() < deadline:
        received += receiver.receive_messages(
            max_message_count=count - len(received), max_wait_time=1)
    return received


class EndpointTestCase(unittest.TestCase):
    """One client and one administration client per test class; entities per test."""

    @classmethod
    def setUpClass(cls):
        cls.admin = administration_client()
        cls.client = service_bus_client()

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.admin.close()

    def make_queue(self, **properties):
        name = unique_name("queue")
        self.admin.create_queue(name, **properties)
        self.addCleanup(self.admin.delete_queue, name)
        return name

    def make_topic(self, **properties):
        name = unique_name("topic")
        self.admin.create_topic(name, **properties)
        self.addCleanup(self.admin.delete_topic, name)
        return name

    def make_subscription(self, topic, **properties):
        name = unique_name("sub")
        self.admin.create_subscription(topic, name, **properties)
        return name
