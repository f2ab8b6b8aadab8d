# tests/golden: golden screens of tests/unit/test_ui_golden (regenerate this
# list with tests/golden/list.sh after adding a case).
EXTRA_DIST += tests/golden/list.sh \
	tests/golden/ascii-grid-coop-160x48.golden \
	tests/golden/ascii-mid-rebalance-range-80x24.golden \
	tests/golden/ascii-timeline-range-80x24.golden \
	tests/golden/attached-events-coop-80x24.golden \
	tests/golden/big-1000-map-160x48.golden \
	tests/golden/big-1000-matrix-80x24.golden \
	tests/golden/compare-coop-range-160x48.golden \
	tests/golden/compare-coop-range-80x24.golden \
	tests/golden/connecting-80x24.golden \
	tests/golden/empty-cluster-80x24.golden \
	tests/golden/events-coop-160x48.golden \
	tests/golden/events-coop-80x24.golden \
	tests/golden/events-range-80x24.golden \
	tests/golden/grid-coop-160x48.golden \
	tests/golden/grid-ledger-160x48.golden \
	tests/golden/grid-range-80x24.golden \
	tests/golden/health-ledger-160x48.golden \
	tests/golden/health-ledger-80x24.golden \
	tests/golden/health-none-80x24.golden \
	tests/golden/health-scrubbed-ledger-120x40.golden \
	tests/golden/help-80x24.golden \
	tests/golden/maximized-timeline-range-80x24.golden \
	tests/golden/mid-rebalance-range-80x24.golden \
	tests/golden/mid-round2-coop-grid-80x24.golden \
	tests/golden/mono-ascii-events-range-80x24.golden \
	tests/golden/mono-grid-coop-80x24.golden \
	tests/golden/mono-timeline-coop-80x24.golden \
	tests/golden/paused-scrub-grid-range-80x24.golden \
	tests/golden/prep-ledger-grid-80x24.golden \
	tests/golden/replay-paused-events-coop-80x24.golden \
	tests/golden/sanitize-weird-80x24.golden \
	tests/golden/sort-lag-filter-80x24.golden \
	tests/golden/stale-kafka-grid-coop-120x40.golden \
	tests/golden/status-wrap-120x40.golden \
	tests/golden/timeline-clock-coop-80x24.golden \
	tests/golden/timeline-coop-160x48.golden \
	tests/golden/timeline-coop-80x24.golden \
	tests/golden/timeline-coop-partitions-160x48.golden \
	tests/golden/timeline-ledger-160x48.golden \
	tests/golden/timeline-range-160x48.golden \
	tests/golden/timeline-range-80x24.golden \
	tests/golden/timeline-storm-zoomed-80x24.golden \
	tests/golden/too-small-60x20.golden
