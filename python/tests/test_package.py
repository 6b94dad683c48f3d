"""ratelimit_sim on one machine: the same numbers as the CLI, from files, from Arrow, in any order."""

from __future__ import annotations

import random
import threading
import unittest

import pyarrow as pa

import ratelimit_sim as rls
from logs import FORMATS, QUERY, Workdir, cli, in_format, per_key_rows, sample


class OneMachine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = Workdir()
        cls.combined = sample()

    @classmethod
    def tearDownClass(cls):
        cls.dir.close()

    def test_simulate_is_the_clis_json(self):
        for query in ["capacity=5&refill=1&duration=20", "algo=sliding_window&limit=30&window=10&rate=5", "nodes=3&store=race&duration=10"]:
            self.assertEqual(rls.simulate(query), cli("--query", query), query)

    def test_every_format_from_files_and_from_arrow_gives_the_clis_per_key_rows(self):
        for fmt, key in FORMATS:
            with self.subTest(format=fmt, key=key):
                lines = in_format(fmt, self.combined)
                path = self.dir.write(f"{fmt.replace(':', '-')}-{key}.log", lines)
                want = cli("--query", QUERY, "--log", path, "--key", key)
                self.assertGreater(want["keys_throttled"], 0, "the policy throttles someone")
                got = rls.shadow(path, QUERY, key=key)
                self.assertEqual(got.to_pylist(), want["per_key"])
                totals = rls.totals(got)
                self.assertEqual([totals[k] for k in ("requests", "admitted", "rejected", "keys", "keys_throttled")], [want[k] for k in ("requests", "admitted", "rejected", "keys", "keys_throttled")])
                # The same lines shuffled, read into Arrow and replayed key by key.
                body = [line for line in lines if not line.startswith("#")]
                random.Random(7).shuffle(body)
                parsed = rls.parse(body, key=key, log_format=None if fmt != "json:ts" else "json:ts")
                self.assertEqual(parsed.num_rows, want["requests"])
                arrow = rls.shadow(parsed, QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second")
                self.assertEqual(arrow.to_pylist(), want["per_key"])

    def test_a_rotated_set_gzip_included_is_merged_by_time_as_the_cli_merges_it(self):
        half = len(self.combined) // 2
        older = self.dir.write("access.log.1.gz", self.combined[:half], gz=True)
        newer = self.dir.write("access.log", self.combined[half:])
        want = cli("--query", QUERY, "--log", older, "--log", newer)
        got = rls.shadow([older, newer], QUERY)
        self.assertEqual(got.to_pylist(), want["per_key"])

    def test_a_table_of_timestamps_and_a_reader_of_batches_read_as_the_log(self):
        want = cli("--query", QUERY, "--log", self.dir.write("whole.log", self.combined))["per_key"]
        parsed = rls.parse(self.combined)
        # A user's own table: a timestamp[s] column is whole seconds, spread as the log's are.
        table = pa.table({"client": parsed["key"], "at": parsed["time_ns"].cast(pa.timestamp("ns", tz="UTC")).cast(pa.timestamp("s", tz="UTC"))})
        self.assertEqual(rls.shadow(table, QUERY, key="client", time="at").to_pylist(), want)
        seconds = pa.table({"client": parsed["key"], "epoch": pa.compute.divide(parsed["time_ns"], 1_000_000_000)})
        reader = pa.RecordBatchReader.from_batches(seconds.schema, seconds.to_batches(max_chunksize=1000))
        self.assertEqual(rls.shadow(reader, QUERY, key="client", time="epoch").to_pylist(), want, "integer seconds: whole seconds")

    def test_counters_per_instance_are_the_clis_from_files_and_at_random_from_arrow(self):
        path = self.dir.write("scoped.log", self.combined)
        for placement in ["rr", "random", "hash"]:
            want = cli("--query", QUERY, "--log", path, "--scope", "instance", "--instances", "3", "--placement", placement)
            got = rls.shadow(path, QUERY, scope="instance", instances=3, placement=placement)
            self.assertEqual(got.to_pylist(), want["per_key"], placement)
            self.assertEqual(rls.totals(got)["scope"], want["scope"], placement)
            if placement == "rr":
                with self.assertRaisesRegex(ValueError, "placement=random"):
                    rls.shadow(rls.parse(self.combined), QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second", scope="instance", instances=3, placement="rr")
                continue
            lines = list(reversed(self.combined))
            arrow = rls.shadow(rls.parse(lines), QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second", scope="instance", instances=3, placement=placement)
            rows = [{k: v for k, v in r.items() if not k.startswith("global_")} for r in arrow.to_pylist()]
            self.assertEqual(rows, want["per_key"], placement)
            self.assertEqual(rls.totals(arrow)["scope"]["global"]["admitted"], want["scope"]["global"]["admitted"])
        with self.assertRaisesRegex(ValueError, "--instances: '0' is not a whole number from 1 to 1024"):
            rls.shadow(path, QUERY, scope="instance", instances=0)

    def test_bad_input_is_a_value_error_in_the_clis_words(self):
        with self.assertRaisesRegex(ValueError, "capacity: 'x' is not a number; allowed: from 1 to"):
            rls.simulate("capacity=x")
        with self.assertRaisesRegex(ValueError, "--log: cannot open /no/such.log"):
            rls.shadow("/no/such.log", QUERY)
        with self.assertRaisesRegex(ValueError, "key: 'nope' is not a key"):
            rls.shadow(self.dir.write("k.log", self.combined[:5]), QUERY, key="nope")
        with self.assertRaisesRegex(ValueError, "log line 1: is not in a log format"):
            rls.shadow(self.dir.write("bad.log", ["hello"]), QUERY)
        with self.assertRaisesRegex(ValueError, "CSV reader"):
            rls.parse(["time,ip", "1700000000,a"], log_format="csv")
        with self.assertRaisesRegex(ValueError, "no column 'when'"):
            rls.shadow(pa.table({"key": ["a"], "time": [1]}), QUERY, key="key", time="when")
        with self.assertRaisesRegex(ValueError, "'time' has 1 nulls"):
            rls.shadow(pa.table({"key": ["a", "b"], "time": pa.array([1, None])}), QUERY, key="key")
        with self.assertRaisesRegex(ValueError, "outside the years 1685"):
            rls.shadow(pa.table({"key": ["a"], "time": [10**13]}), QUERY, key="key")

    def test_the_engine_runs_without_the_gil(self):
        lines = sample(minutes=30)
        table = rls.parse(lines)
        done, ticks = threading.Event(), 0

        def run():
            for _ in range(3):
                rls.shadow(table, QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second")
            done.set()

        worker = threading.Thread(target=run)
        worker.start()
        while not done.is_set():
            ticks += 1
        worker.join()
        self.assertGreater(ticks, 10_000, "the main thread ran while the engine did")


if __name__ == "__main__":
    unittest.main()
