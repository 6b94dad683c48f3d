"""ratelimit_sim.spark on a local Spark (local[2]): a log split into four files, every key spread
across them, gives per key exactly what the CLI gives for the whole log; each group streams
through the iterator form of grouped applyInArrow."""

from __future__ import annotations

import os
import unittest

import ratelimit_sim.spark as rls_spark
from logs import QUERY, Workdir, cli, in_format, per_key_rows, sample, split_round_robin


class OnSpark(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from pyspark.sql import SparkSession

        cls.dir = Workdir()
        os.environ.setdefault("PYSPARK_PYTHON", os.sys.executable)
        os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"  # the driver and executors talk over loopback only
        cls.spark = (
            SparkSession.builder.master("local[2]")
            .appName("ratelimit-sim-test")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.local.dir", str(cls.dir.path / "spark"))
            .getOrCreate()
        )
        cls.spark.sparkContext.setLogLevel("ERROR")
        cls.combined = sample()

    @classmethod
    def tearDownClass(cls):
        cls.spark.stop()
        cls.dir.close()

    def test_four_files_on_local_spark_give_the_clis_per_key_rows(self):
        for fmt in ["combined", "alb"]:
            with self.subTest(format=fmt):
                lines = in_format(fmt, self.combined)
                want = cli("--query", QUERY, "--log", self.dir.write(f"whole-{fmt}.log", lines))
                parts = [self.dir.write(f"part-{fmt}-{i}.log" + (".gz" if i % 2 else ""), p, gz=bool(i % 2)) for i, p in enumerate(split_round_robin(lines, 4))]
                df = rls_spark.read_log(self.spark, parts)
                got = rls_spark.shadow(df, QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second").collect()
                self.assertEqual(len(got), want["keys"])
                self.assertEqual(per_key_rows([r.asDict() for r in got]), want["per_key"])

    def test_a_frame_of_timestamps_reads_as_the_log(self):
        from pyspark.sql import functions as F

        want = cli("--query", QUERY, "--log", self.dir.write("whole.log", self.combined))["per_key"]
        df = rls_spark.read_log(self.spark, self.dir.write("all.log", self.combined))
        frame = df.select(F.col("key").alias("client"), F.timestamp_seconds(F.col("time_ns") / 1_000_000_000).alias("at")).repartition(3)
        got = rls_spark.shadow(frame, QUERY, key="client", time="at", whole_second=True).collect()
        self.assertEqual(per_key_rows([r.asDict() for r in got]), want)

    def test_counters_on_instances_at_random_are_the_clis(self):
        path = self.dir.write("scoped.log", self.combined)
        want = cli("--query", QUERY, "--log", path, "--scope", "instance", "--instances", "4", "--placement", "random")
        df = rls_spark.read_log(self.spark, [self.dir.write(f"scoped-{i}.log", p) for i, p in enumerate(split_round_robin(self.combined, 4))])
        got = rls_spark.shadow(df, QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second", scope="instance", instances=4, placement="random").collect()
        rows = [{k: v for k, v in r.asDict().items() if not k.startswith("global_")} for r in got]
        self.assertEqual(per_key_rows(rows), want["per_key"])
        with self.assertRaisesRegex(ValueError, "placement=random"):
            rls_spark.shadow(df, QUERY, key="key", time="time_ns", unit="ns", scope="instance", placement="rr")

    def test_a_bad_query_fails_on_the_driver_in_the_clis_words(self):
        df = self.spark.createDataFrame([("a", 1)], "key string, time long")
        with self.assertRaisesRegex(ValueError, "refill: "):
            rls_spark.shadow(df, "refill=-1")


if __name__ == "__main__":
    unittest.main()
