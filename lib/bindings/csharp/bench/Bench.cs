// Bench.cs: the C# side of the binding's benchmark: the queries of
// bench_c.c through Navbake.dll, timed the same way (the best of ROUNDS
// rounds, nanoseconds a query), and the allocations of the steady loop.
//   mono bench.exe BUNDLE FILE.scen ROUNDS
using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Collections.Generic;
using Navbake;

static class Bench
{
    static int Main(string[] args)
    {
        string bundle = args[0], scen = args[1]; int rounds = int.Parse(args[2]);
        var s = new List<Cell>(); var g = new List<Cell>();
        foreach (var line in File.ReadAllLines(scen))
        {
            var f = line.Split('\t');
            if (f.Length < 9) continue;
            s.Add(new Cell(int.Parse(f[4]), int.Parse(f[5]))); g.Add(new Cell(int.Parse(f[6]), int.Parse(f[7])));
        }
        var S = s.ToArray(); var G = g.ToArray(); int n = S.Length;
        using (var b = Bundle.Open(bundle))
        using (var aa = new Aa(b))
        using (var place = new Place(b))
        {
            var agent = b.Agent(0);
            var q = AaQuery.Init(); q.SetAgent(agent);
            var nq = NearestQuery.Init(); nq.SetAgent(agent);
            var lq = LineQuery.Init(); lq.SetAgent(agent);
            double[] best = { 1e300, 1e300, 1e300 }, sum = { 0, 0, 0 };
            Cell[] path = null;
            long gc0 = 0;
            for (int r = 0; r < rounds; r++)
            {
                if (r == 1) gc0 = GC.CollectionCount(0);
                var w = Stopwatch.StartNew();
                for (int i = 0; i < n; i++) { q.Start = S[i]; q.Goal = G[i]; sum[0] += aa.Find(q).Length; }
                double t1 = w.Elapsed.TotalMilliseconds * 1e6;
                for (int i = 0; i < n; i++) { nq.Point = S[i]; sum[1] += place.Nearest(nq).Distance; }
                double t2 = w.Elapsed.TotalMilliseconds * 1e6;
                for (int i = 0; i < n; i++) { lq.Start = new Vec2(S[i].X, S[i].Y); lq.Goal = new Vec2(G[i].X, G[i].Y); sum[2] += place.Line(lq).T; }
                double t3 = w.Elapsed.TotalMilliseconds * 1e6;
                double[] d = { t1, t2 - t1, t3 - t2 };
                for (int k = 0; k < 3; k++) if (d[k] < best[k]) best[k] = d[k];
            }
            // A steady loop that copies every path too: after the first
            // round no collection may be needed (nothing allocated a query).
            for (int r = 0; r < rounds; r++)
                for (int i = 0; i < n; i++) { q.Start = S[i]; q.Goal = G[i]; aa.Find(q); aa.CopyPath(ref path); }
            long gcs = GC.CollectionCount(0) - gc0;
            var inv = CultureInfo.InvariantCulture;
            string[] names = { "aa", "nearest", "line" };
            for (int k = 0; k < 3; k++)
                Console.WriteLine(string.Format(inv, "{0} {1:F1} {2:F6}", names[k], best[k] / n, sum[k] / rounds));
            Console.WriteLine("gen0_collections_in_steady_loops " + gcs);
        }
        return 0;
    }
}
