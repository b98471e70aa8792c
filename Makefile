# Two commands for a fresh Debian 12 machine (README.md):
#   make run    installs missing packages, configures, builds into build/, runs the app
#   make test   the same set-up, then every test through ctest
# Other targets: make build, make bench (Release build, prints the engine and window benchmarks),
# make format, make print-packages (the PACKAGES list, read by the set-up check in tests/setup).

BUILD      ?= build
BENCH_DIR  ?= build-release
PACKAGES   := cmake ninja-build g++ make pkg-config qt6-base-dev qt6-charts-dev libqt6opengl6-dev libsqlite3-dev fonts-dejavu-core
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CTEST_ARGS ?= --output-on-failure -j2

.PHONY: deps configure build run test bench format clean print-packages

deps:
	@missing=""; \
	for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages:$$missing"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi

configure: deps
	@[ -f $(BUILD)/build.ninja ] || cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: configure
	cmake --build $(BUILD)

run: build
	./$(BUILD)/app/hourglass

test: build
	ctest --test-dir $(BUILD) $(CTEST_ARGS)

bench: deps
	@[ -f $(BENCH_DIR)/build.ninja ] || cmake -S . -B $(BENCH_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BENCH_DIR) --target engine_bench gui_bench
	./$(BENCH_DIR)/tests/bench/engine_bench
	./$(BENCH_DIR)/tests/bench/gui_bench

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(BENCH_DIR)

print-packages:
	@echo $(PACKAGES)
