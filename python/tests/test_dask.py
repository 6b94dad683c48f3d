"""ratelimit_sim.dask on a LocalCluster of two worker processes: a log split into four files, every
key spread across them, gives per key exactly what the CLI gives for the whole log."""

from __future__ import annotations

import logging
import unittest

import pandas as pd

import ratelimit_sim.dask as rls_dask
from logs import QUERY, Workdir, cli, in_format, per_key_rows, sample, split_round_robin


class OnDask(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from dask.distributed import Client, LocalCluster

        logging.getLogger("distributed.shuffle").setLevel(logging.ERROR)  # a line per shuffle, at WARNING

        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        cls.client = Client(cls.cluster)
        cls.dir = Workdir()
        cls.combined = sample()

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        cls.dir.close()

    def test_four_files_on_two_workers_give_the_clis_per_key_rows(self):
        for fmt in ["combined", "msec"]:
            with self.subTest(format=fmt):
                lines = in_format(fmt, self.combined)
                want = cli("--query", QUERY, "--log", self.dir.write(f"whole-{fmt}.log", lines))
                parts = [self.dir.write(f"part-{fmt}-{i}.log" + (".gz" if i % 2 else ""), p, gz=bool(i % 2)) for i, p in enumerate(split_round_robin(lines, 4))]
                ddf = rls_dask.read_log(parts)
                self.assertEqual(ddf.npartitions, 4)
                got = rls_dask.shadow(ddf, QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second").compute()
                self.assertEqual(len(got), want["keys"])
                rows = per_key_rows(got.astype(object).where(got.notna(), None).to_dict("records"))
                self.assertEqual(rows, want["per_key"])

    def test_counters_on_instances_at_random_are_the_clis(self):
        path = self.dir.write("scoped.log", self.combined)
        want = cli("--query", QUERY, "--log", path, "--scope", "instance", "--instances", "4", "--placement", "random")
        parts = [self.dir.write(f"scoped-{i}.log", p) for i, p in enumerate(split_round_robin(self.combined, 4))]
        got = rls_dask.shadow(rls_dask.read_log(parts), QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second", scope="instance", instances=4, placement="random").compute()
        rows = [{k: v for k, v in r.items() if not k.startswith("global_")} for r in got.astype(object).where(got.notna(), None).to_dict("records")]
        self.assertEqual(per_key_rows(rows), want["per_key"])
        self.assertEqual(int(got["global_admitted"].sum()), want["scope"]["global"]["admitted"])

    def test_a_frame_of_datetimes_reads_as_the_log(self):
        want = cli("--query", QUERY, "--log", self.dir.write("whole.log", self.combined))["per_key"]
        import dask.dataframe as dd

        requests = rls_dask.read_log([self.dir.write("all.log", self.combined)]).compute()
        frame = pd.DataFrame({"client": requests["key"], "at": pd.to_datetime(requests["time_ns"], unit="ns", utc=True)})
        ddf = dd.from_pandas(frame.sample(frac=1, random_state=3), npartitions=3)
        got = rls_dask.shadow(ddf, QUERY, key="client", time="at", whole_second=True).compute()
        self.assertEqual(per_key_rows(got.astype(object).where(got.notna(), None).to_dict("records")), want)


if __name__ == "__main__":
    unittest.main()
