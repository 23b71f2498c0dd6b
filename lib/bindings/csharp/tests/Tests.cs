// Tests.cs: the C# binding against the C library's own answers, as TAP.
//   mono tests.exe SAMPLE.nbk SCEN.nbk SCEN.scen LENGTHS LAYOUT WORLD.nbw WHOLE.nbk
//                  ROOM.nbk ROOM.scen ROOM.LENGTHS SCEN.map
// SAMPLE.nbk holds every family's sections (mkclear --optimal, mkabstract,
// mkperim, mkhitcheck, mkabstract --forest); SCEN.scen holds the 1,000
// scenario lines and LENGTHS the length navbake scen found for each;
// LAYOUT is what layout.c printed; SCEN.map is the map SCEN.nbk was baked
// from (mkclear, its default legend and agents), which Baking bakes again.  The families are compared with the
// answers of the navbake command (its --json output), found on PATH.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using Navbake;

static class Tests
{
    static int n, failed;
    static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    static void Ok(bool cond, string what, string detail = null)
    {
        n++;
        Console.WriteLine((cond ? "ok " : "not ok ") + n + " - " + what);
        if (!cond) { failed++; if (detail != null) Console.WriteLine("#   " + detail.Replace("\n", "\n#   ")); }
    }
    static void Near(double got, double want, string what, double tol = 1e-6)
    {
        Ok(Math.Abs(got - want) <= tol, what, "got " + got.ToString("R", Inv) + ", want " + want.ToString("R", Inv));
    }
    static T Throws<T>(Action a, string what, Func<T, bool> check = null) where T : Exception
    {
        try { a(); Ok(false, what, "nothing was thrown"); }
        catch (T e) { Ok(check == null || check(e), what, e.GetType().Name + ": " + e.Message); return e; }
        catch (Exception e) { Ok(false, what, "threw " + e.GetType().Name + ": " + e.Message); }
        return null;
    }

    // The navbake command's answer: its standard output and error.
    static string Cli(string args, out string stderr)
    {
        var p = new Process();
        p.StartInfo = new ProcessStartInfo("navbake", args) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        p.Start();
        var errTask = p.StandardError.ReadToEndAsync();
        string o = p.StandardOutput.ReadToEnd();
        p.WaitForExit();
        stderr = errTask.Result;
        return o;
    }
    static string Cli(string args) { string e; return Cli(args, out e); }
    static double Num(string json, string key)
    {
        var m = Regex.Match(json, "\"" + key + "\": *(-?[0-9.eE+-]+)");
        if (!m.Success) throw new Exception("no \"" + key + "\" in " + json);
        return double.Parse(m.Groups[1].Value, Inv);
    }

    static int Main(string[] args)
    {
        string sample = args[0], scenBundle = args[1], scen = args[2], lengths = args[3], layout = args[4];
        Layout(layout);
        Scenario(scenBundle, scen, lengths, "");
        Scenario(args[7], args[8], args[9], "a Tiled level: ");
        using (var b = Bundle.Open(sample, Flags.OpenVerify))
        {
            Families(b, sample);
            Errors(b, sample);
        }
        Disposed(sample);
        Worlds(args[5], args[6]);
        WorldQueries(args[5], args[6]);
        WorldMore(args[5], args[6]);
        Baking(args[10], scenBundle, scen, lengths);
        Console.WriteLine("1.." + n);
        return failed == 0 ? 0 : 1;
    }

    // Every struct's size and every field's offset as the C compiler lays them out.
    static void Layout(string file)
    {
        var asm = typeof(Bundle).Assembly;
        var abiType = asm.GetType("Navbake.Abi");
        var typeOf = abiType.GetMethod("TypeOf", BindingFlags.Static | BindingFlags.NonPublic);
        var sizeOf = abiType.GetMethod("SizeOf", BindingFlags.Static | BindingFlags.NonPublic);
        var alias = new Dictionary<string, string> { { "reason", "ReasonPtr" }, { "word", "Word0" }, { "seg", "Seg0" } };
        int checkedFields = 0, bad = 0;
        var msgs = new List<string>();
        foreach (var line in File.ReadAllLines(file))
        {
            var parts = line.Split(' ');
            string name = parts[0]; long want = long.Parse(parts[1]);
            int dot = name.IndexOf('.');
            string st = dot < 0 ? name : name.Substring(0, dot);
            long got;
            if (dot < 0) got = (uint)sizeOf.Invoke(null, new object[] { st });
            else
            {
                var t = (Type)typeOf.Invoke(null, new object[] { st });
                if (t == null) { if (st == "nb_err") got = name == "nb_err.code" ? 0 : 4; else { msgs.Add(name + ": no type"); bad++; continue; } }
                else
                {
                    string f = name.Substring(dot + 1), cs;
                    if (!alias.TryGetValue(f, out cs)) cs = Pascal(f);
                    try { got = Marshal.OffsetOf(t, cs).ToInt64(); }
                    catch (ArgumentException) { msgs.Add(name + ": " + t.Name + " has no field " + cs); bad++; continue; }
                }
            }
            checkedFields++;
            if (got != want) { bad++; msgs.Add(name + ": C says " + want + ", C# " + got); }
        }
        Ok(bad == 0 && checkedFields > 200, "every size and offset of navbake.h's structs matches the binding's (" + checkedFields + " checked)", string.Join("\n", msgs));
        uint i = 0; var sizeMsgs = new List<string>();
        var names = (string[])abiType.GetField("Names", BindingFlags.Static | BindingFlags.NonPublic).GetValue(null);
        for (; Bundle.AbiName(i) != null; i++)
            if (i >= names.Length || Bundle.AbiName(i) != names[i] || Bundle.AbiSize(i) != (uint)sizeOf.Invoke(null, new object[] { names[i] }))
                sizeMsgs.Add(Bundle.AbiName(i) + " " + Bundle.AbiSize(i));
        Ok(sizeMsgs.Count == 0 && i == names.Length, "the library's NB_ABI_STRUCTS are the binding's, size for size (" + i + ")", string.Join("\n", sizeMsgs));
        try { Bundle.CheckAbi(); Ok(true, "nb_abi_check accepts the binding"); }
        catch (NavbakeException e) { Ok(false, "nb_abi_check accepts the binding", e.Message); }
    }
    static string Pascal(string s)
    {
        var sb = new System.Text.StringBuilder();
        foreach (var w in s.Split('_')) if (w.Length > 0) sb.Append(char.ToUpperInvariant(w[0])).Append(w.Substring(1));
        return sb.ToString();
    }

    // 1,000 scenario lines: the lengths navbake scen found, and the file's.
    static void Scenario(string bundle, string scen, string lengthsFile, string what)
    {
        using (var b = Bundle.Open(bundle)) Scenario(b, scen, lengthsFile, what);
    }
    static void Scenario(Bundle b, string scen, string lengthsFile, string what)
    {
        var want = File.ReadAllLines(lengthsFile);
        var lines = File.ReadAllLines(scen);
        using (var aa = new Aa(b))
        {
            var q = AaQuery.Init();
            var a = b.Agent(0);
            q.Size = a.Size; q.Capability = a.Capability;
            int run = 0, differ = 0, fileDiffer = 0; var first = new List<string>();
            Cell[] path = null; int steps = 0, grown = 0;
            for (int i = 1; i < lines.Length; i++)
            {
                var f = lines[i].Split('\t');
                q.Start = new Cell(int.Parse(f[4]), int.Parse(f[5]));
                q.Goal = new Cell(int.Parse(f[6]), int.Parse(f[7]));
                var r = aa.Find(q);
                double w = double.Parse(want[run], Inv), file = double.Parse(f[8], Inv);
                // navbake scen's tolerance: 1e-4, or a unit of the last decimal of a shorter length
                int dot = f[8].IndexOf('.'), decimals = dot < 0 ? 0 : f[8].Length - dot - 1;
                double tol = decimals >= 4 ? 1e-4 : Math.Pow(10, -decimals) + 1e-9;
                if (r.Status != PathStatus.Found || Math.Abs(r.Length - w) > 1e-6)
                {
                    differ++;
                    if (first.Count < 5) first.Add("line " + (i + 1) + ": " + r.Status + " " + r.Length + ", navbake scen " + w);
                }
                if (Math.Abs(r.Length - file) > tol) fileDiffer++;
                var before = path;
                int k = aa.CopyPath(ref path);
                if (!ReferenceEquals(before, path)) grown++;
                if (k == 0 || path[0].X != q.Start.X || path[k - 1].Y != q.Goal.Y) differ++;
                steps += k;
                run++;
            }
            Ok(run == 1000, what + "1,000 scenario lines run (" + run + ")");
            // One read-only bundle, a workspace for each of two threads: the same lengths.
            var starts = new List<AaQuery>();
            for (int i = 1; i < lines.Length; i++)
            {
                var f = lines[i].Split('\t');
                var t = q; t.Start = new Cell(int.Parse(f[4]), int.Parse(f[5])); t.Goal = new Cell(int.Parse(f[6]), int.Parse(f[7]));
                starts.Add(t);
            }
            var sums = new double[2];
            var threads = new System.Threading.Thread[2];
            for (int k = 0; k < 2; k++)
            {
                int kk = k;
                threads[k] = new System.Threading.Thread(() =>
                {
                    using (var mine = new Aa(b))
                        for (int i = kk; i < starts.Count; i += 2)
                            if (Math.Abs(mine.Find(starts[i]).Length - double.Parse(want[i], Inv)) > 1e-6) sums[kk] += 1;
                });
                threads[k].Start();
            }
            foreach (var t in threads) t.Join();
            Ok(sums[0] == 0 && sums[1] == 0, what + "two threads, a workspace each on one bundle: navbake scen's lengths");
            // Grown by doubling from 16: a new array only for a path longer than any before.
            Ok(grown >= 1 && grown <= 1 + (int)Math.Ceiling(Math.Log(path.Length / 16.0, 2)), what + "CopyPath reused the caller's array: " + grown + " arrays for 1,000 paths (" + path.Length + " cells)");
            Ok(differ == 0, what + "every length is navbake scen's", string.Join("\n", first));
            Ok(fileDiffer == 0, what + "and the scenario file's optimal length (" + fileDiffer + " differ)");
        }
    }

    static void Families(Bundle b, string file)
    {
        var scout = b.Agent("scout");
        Ok(scout.Size == 1 && b.CapabilityFormat(scout.Capability) == "ground,swamp", "agents and capabilities read as navbake info shows them");
        Ok(b.Width == 64 && b.Height == 40 && b.HasMap, "the map's size");
        var pairs = new[] { new[] { 2, 2, 60, 36 }, new[] { 30, 5, 5, 35 }, new[] { 10, 3, 3, 38 }, new[] { 60, 2, 2, 38 }, new[] { 40, 20, 62, 2 } };
        Cell[] path = null;
        using (var aa = new Aa(b))
        using (var sg = new Sg(b))
        using (var haa = new Haa(b))
        using (var ov = new Overlay(b))
        {
            foreach (var p in pairs)
            {
                string ft = string.Format("-f {0},{1} -t {2},{3}", p[0], p[1], p[2], p[3]);
                var q = AaQuery.Init(); q.Size = scout.Size; q.Capability = scout.Capability;
                q.Start = new Cell(p[0], p[1]); q.Goal = new Cell(p[2], p[3]);
                var r = aa.Find(q);
                Near(r.Length, Num(Cli("query -j " + file + " " + ft), "length"), "AA* " + ft + ": navbake query's length", 1e-7);
                Ok((ulong)r.Expanded == (ulong)Num(Cli("query -j " + file + " " + ft), "expanded"), "AA* " + ft + ": and its expansions");
                aa.Begin(q); while (!aa.Step(7)) { }
                var rs = aa.Finish();
                Ok(rs.Length == r.Length && rs.PathLength == r.PathLength, "AA* " + ft + ": sliced in steps of 7, the same path");
                var sq = SgQuery.Init(); sq.Size = 1; sq.Capability = scout.Capability; sq.Start = q.Start; sq.Goal = q.Goal;
                var sr = sg.Find(sq);
                Near(sr.Length, Num(Cli("query -j -m optimal " + file + " " + ft), "length"), "optimal layer " + ft + ": navbake query -m optimal", 1e-7);
                var hq = HaaQuery.Init(); hq.Size = 1; hq.Capability = scout.Capability; hq.Start = q.Start; hq.Goal = q.Goal; hq.Flags = Flags.HaaStraighten;
                var hr = haa.Find(hq);
                Near(hr.Length, Num(Cli("query -j -m haa " + file + " " + ft), "length"), "HAA* " + ft + ": navbake query -m haa", 1e-7);
                hq.Flags = 0;
                Near(haa.Find(hq).Length, Num(Cli("query -j -m haa-refined " + file + " " + ft), "length"), "HAA* refined " + ft + ": navbake query -m haa-refined", 1e-7);
                int k = haa.CopyPath(ref path);
                Ok(k == haa.Find(hq).PathLength && path[0].X == p[0] && path[k - 1].Y == p[3], "HAA*: its path copied whole");
            }
            var nq0 = AaQuery.Init(); nq0.SetAgent(scout); nq0.Start = new Cell(5, 30); nq0.Goal = new Cell(50, 4);
            var none = aa.Find(nq0);
            Ok(none.Status == PathStatus.None && none.PathLength == 0 && Cli("query -j " + file + " -f 5,30 -t 50,4").Contains("\"status\": \"no path\""),
                "AA* 5,30 -> 50,4: no path, as navbake query says");
            // An overlay: a block on the way, as navbake query --block.
            ov.Block(20, 10, 4, 20);
            Ok(ov.BlockedCount == 80 && ov.Blocked(21, 15) && !ov.Blocked(24, 15), "an overlay blocks the cells asked");
            foreach (var m in new[] { "aa", "optimal", "haa" })
            {
                string ft = "-f 2,2 -t 60,36 --block 20,10,4,20";
                double want = Num(Cli("query -j -m " + m + " " + file + " " + ft), "length"), got;
                if (m == "aa") { var q = AaQuery.Init(); q.Capability = scout.Capability; q.Start = new Cell(2, 2); q.Goal = new Cell(60, 36); got = aa.Find(q, ov).Length; }
                else if (m == "optimal") { var q = SgQuery.Init(); q.Capability = scout.Capability; q.Start = new Cell(2, 2); q.Goal = new Cell(60, 36); got = sg.Find(q, ov).Length; }
                else { var q = HaaQuery.Init(); q.Capability = scout.Capability; q.Start = new Cell(2, 2); q.Goal = new Cell(60, 36); q.Flags = Flags.HaaStraighten; got = haa.Find(q, ov).Length; }
                Near(got, want, m + " under an overlay: navbake query --block", 1e-7);
            }
            var hq2 = HaaQuery.Init(); hq2.Capability = scout.Capability; hq2.Start = new Cell(2, 2); hq2.Goal = new Cell(60, 36);
            Ok(haa.Reachable(hq2, ov), "HAA* reachable under the overlay");
            Ok(haa.Describe().Cluster > 0 && haa.Describe().Quality != null, "HAA*'s graph described");
            using (var c = ov.Clone()) { c.Unblock(20, 10, 4, 20); Ok(c.BlockedCount == 0 && ov.BlockedCount == 80, "a clone changes apart from its source"); }
        }

        using (var place = new Place(b))
        {
            // nearest from an obstacle cell
            int ox = -1, oy = -1;
            for (int y = 0; y < b.Height && ox < 0; y++) for (int x = 8; x < b.Width; x++) if (b.Terrain(x, y) < 0 && y > 3) { ox = x; oy = y; break; }
            var nq = NearestQuery.Init(); nq.Capability = scout.Capability; nq.Point = new Cell(ox, oy);
            var nr = place.Nearest(nq);
            var nj = Cli("nearest -j " + file + " " + ox + "," + oy);
            Ok(nr.Cell.X == (int)Num(nj, "x") && nr.Cell.Y == (int)Num(nj, "y"), "nearest from the wall at " + ox + "," + oy + ": navbake nearest's cell", nr.Cell + " / " + nj);
            Near(nr.Distance, Num(nj, "distance"), "nearest: its distance");
            var lq = LineQuery.Init(); lq.Capability = scout.Capability; lq.Start = new Vec2(2, 2); lq.Goal = new Vec2(30.5, 20);
            var lr = place.Line(lq);
            var lj = Cli("line -j " + file + " -f 2,2 -t 30.5,20");
            Near(lr.T, Num(lj, "t"), "line: navbake line's t", 1e-12);
            Ok(lr.Blocking.X == (int)Num(lj, "x") && lr.Blocking.Y == (int)Num(lj, "y"), "line: its blocking cell");
            var rq = RandomQuery.Init(); rq.Capability = scout.Capability; rq.Seed = 7;
            var rj = Cli("random -j -n 3 --seed 7 " + file);
            var picks = Regex.Matches(rj, "\\[(\\d+), (\\d+)\\]");
            bool same = picks.Count == 3;
            for (int i = 0; i < 3 && same; i++)
            {
                var rr = place.Random(rq);
                same = rr.Cell.X == int.Parse(picks[i].Groups[1].Value) && rr.Cell.Y == int.Parse(picks[i].Groups[2].Value);
                rq.Seed = rr.State;
            }
            Ok(same, "random: navbake random's three cells from seed 7", rj);
            place.LineBegin(lq); while (!place.LineStep(2)) { }
            Ok(place.LineFinish().T == lr.T, "line sliced: the same answer");
            using (var ov = new Overlay(b))
            {
                ov.Block(ox - 3 < 0 ? 0 : ox - 3, oy - 3 < 0 ? 0 : oy - 3, 7, 7);
                var no = place.Nearest(nq, ov);
                Ok(no.Status == PathStatus.Found && !ov.Blocked(no.Cell.X, no.Cell.Y) && no.Distance > nr.Distance, "nearest under an overlay: a cell it leaves free, farther");
            }
        }

        // Motion: the tank model with its perimeter table, as navbake plan --model.
        using (var model = new Model(b, "tank"))
        using (var perim = new Perimeter(b, model))
        using (var mo = new Motion(b, model, perim, scout.Capability, scout.Size))
        {
            var q = MotionQuery.Init();
            q.Heuristic = Model.HeuristicParse("extended+heading");
            q.Start = new MotionState(2, 2, 0, (ushort)model.Stop); q.Goal = new MotionState(20, 20, 0, (ushort)model.Stop);
            var r = mo.Find(q);
            var j = Cli("plan --model tank -j -f 2,2 -t 20,20 " + file);
            Near(r.Cost, Num(j, "cost"), "motion: navbake plan --model's cost", 1e-5);
            Ok(r.Expanded == (ulong)Num(j, "expanded"), "motion: and its expansions");
            MotionState[] states = null;
            int k = mo.CopyPath(ref states);
            Ok(k == r.PathLength && states[k - 1].X == 20 && states[k - 1].Y == 20, "motion: the path ends at the goal");
            Ok(model.Name == "tank" && Model.HeuristicName(MotionHeuristic.Grid) == "grid", "model and heuristic names");
            // A route over sectors of 6 cells, 3 a segment, as navbake plan --route.
            mo.UseSectors(6);
            q.Goal = new MotionState(60, 36, 0, (ushort)model.Stop);
            int seen = 0, segs;
            var rr = mo.RouteFind(q, 3, seg => seen++, out segs);
            var rj = Cli("plan --model tank --route -j -f 2,2 -t 60,36 " + file);
            Near(rr.Cost, Num(rj, "cost"), "motion route: navbake plan --route's cost", 1e-5);
            Ok(segs == (int)Num(rj, "segments") && seen == segs, "motion route: its segments, each seen by the callback (" + seen + ")");
        }
        // Planner: the jeep, as navbake plan --unit.
        using (var pl = new Planner(b, "jeep"))
        {
            var q = PlannerQuery.Init();
            q.Start = new Pose(2.5, 2.5, 0); q.Goal = new Cell(60, 36);
            var r = pl.Find(q);
            var j = Cli("plan --unit jeep -j -f 2,2 -t 60,36 " + file);
            Near(r.Length, Num(j, "length"), "planner: navbake plan --unit's length", 1e-5);
            Segment[] segs = null;
            int k = pl.CopySegments(ref segs);
            Near(Geometry.Length(segs, k), r.Length, "planner: its segments' lengths add up", 1e-6);
            Ok(pl.Walkable(segs, k) && pl.Unit.Name == "jeep", "planner: the path is walkable for the jeep");
        }
        // Forest: as navbake query --forest.
        using (var f = Forest.Open(b))
        using (var fs = new ForestSearch(f))
        {
            var q = ForestQuery.Init(); q.Start = new Vec2(1, 1); q.Goal = new Vec2(90, 50); q.AgentRadius = 1.5;
            var r = fs.Find(q);
            Near(r.Length, Num(Cli("query --forest -j -s 1,1 -t 90,50 -r 1.5 " + file), "length"), "forest: navbake query --forest's length", 1e-9);
            Segment[] segs = null;
            int k = fs.CopySegments(ref segs);
            Near(Geometry.Length(segs, k), r.Length, "forest: its segments' lengths add up", 1e-9);
            Ok(f.RadiusCount == 2 && f.Radius(1) == 1.5 && f.Graph(1).Nodes > 0, "forest: its baked radii and graphs");
        }
        using (var f = Forest.OpenCircles(new[] { new Circle(5, 0, 2) }))
        using (var fs = new ForestSearch(f))
        {
            var q = ForestQuery.Init(); q.Start = new Vec2(0, 0); q.Goal = new Vec2(10, 0);
            double around = fs.Find(q).Length;
            f.RemoveCircle(0);
            Near(fs.Find(q).Length, 10, "a program's forest: straight once its circle is gone");
            Ok(around > 10 && around < 10 + 2 * Math.PI, "... and round it before");
        }
        var curves = new Curve[Geometry.MaxCandidates];
        int nc = Geometry.CurveToPose(new Pose(0, 0, 0), new Pose(10, 0, 0), 2, curves);
        Ok(nc > 0 && Math.Abs(curves[0].Length - 10) < 1e-9 && curves[0].Word.Length > 0, "curves: a straight Dubins curve is the shortest");
    }

    static void Errors(Bundle b, string file)
    {
        string cliErr;
        Cli("query " + file + " -f 1,1 -t 1,1 -c ground,lava", out cliErr);
        Throws<NavbakeException>(() => b.CapabilityParse("ground,lava"), "an unknown terrain: NavbakeException with the library's message",
            e => e.Status == Status.NotFound && e.Message.Length > 0 && cliErr.Contains(e.Message));
        Throws<NavbakeException>(() => Bundle.Open("/nonexistent/x.nbk"), "a missing bundle: NB_ERR_IO naming the file",
            e => e.Status == Status.Io && e.Message.Contains("/nonexistent/x.nbk"));
        Throws<NavbakeException>(() => Bundle.OpenMemory(new byte[100]), "bytes that are no bundle: NB_ERR_FORMAT",
            e => e.Status == Status.Format && e.Message.Length > 0);
        using (var aa = new Aa(b))
        {
            var q = AaQuery.Init(); q.Capability = b.Agent(0).Capability; q.Start = new Cell(100, 100);
            Throws<NavbakeException>(() => aa.Find(q), "a start off the map: NB_ERR_OUTSIDE", e => e.Status == Status.Outside && e.Message.Contains("100"));
            q.Start = new Cell(1, 1); q.Size = 0;
            Throws<NavbakeException>(() => aa.Find(q), "size 0: NB_ERR_ARG", e => e.Status == Status.Arg);
            q.Size = 1; q.Capability = 0;
            Throws<NavbakeException>(() => aa.Find(q), "a capability not baked: NB_ERR_NOTFOUND", e => e.Status == Status.NotFound);
            Throws<NavbakeException>(() => aa.Step(1), "step with no query begun: NB_ERR_ARG", e => e.Status == Status.Arg);
            Throws<NavbakeException>(() => aa.Find(q, null, new double[] { 0.5, 1, 1, 1 }), "a terrain cost below 1: refused", e => e.Status == Status.Arg || e.Status == Status.NotFound);
        }
        Throws<NavbakeException>(() => new Planner(b, "bicycle"), "an unknown unit: NB_ERR_NOTFOUND naming the units", e => e.Status == Status.NotFound && e.Message.Contains("jeep"));
        using (var other = Bundle.Open(file))
        using (var ov = new Overlay(other))
        using (var aa = new Aa(b))
        {
            var q = AaQuery.Init(); q.Capability = b.Agent(0).Capability; q.Goal = new Cell(5, 5); q.Start = new Cell(2, 2);
            Throws<NavbakeException>(() => aa.Find(q, ov), "an overlay of another bundle: NB_ERR_ARG", e => e.Status == Status.Arg);
            Ok(aa.Find(q).Status == PathStatus.Found, "the workspace answers after its errors");
        }
    }

    static void Disposed(string file)
    {
        var b = Bundle.Open(file);
        var aa = new Aa(b);
        var ov = new Overlay(b);
        var q = AaQuery.Init(); q.Capability = b.Agent(0).Capability; q.Start = new Cell(2, 2); q.Goal = new Cell(60, 36);
        b.Dispose();
        Throws<ObjectDisposedException>(() => { var w = b.Width; }, "a closed bundle used again: ObjectDisposedException");
        Throws<ObjectDisposedException>(() => new Aa(b), "... and a workspace opened on it");
        Ok(aa.Find(q, ov).Status == PathStatus.Found, "a workspace keeps its bundle open until it is closed");
        ov.Dispose();
        Throws<ObjectDisposedException>(() => aa.Find(q, ov), "a closed overlay given to a query: ObjectDisposedException");
        Throws<ObjectDisposedException>(() => ov.Block(1, 1, 1, 1), "a closed overlay changed: ObjectDisposedException");
        aa.Dispose();
        Throws<ObjectDisposedException>(() => aa.Find(q), "a closed workspace used again: ObjectDisposedException");
        Cell[] path = null;
        Throws<ObjectDisposedException>(() => aa.CopyPath(ref path), "... its last path too");
        aa.Dispose();
        Ok(true, "closing twice is allowed");
        var b2 = Bundle.Open(file);
        var f = Forest.Open(b2); var fs = new ForestSearch(f);
        f.Dispose(); b2.Dispose();
        var fq = ForestQuery.Init(); fq.Start = new Vec2(1, 1); fq.Goal = new Vec2(90, 50);
        Ok(fs.Find(fq).Status == PathStatus.Found, "a forest search keeps its forest and bundle open");
        fs.Dispose();
        Throws<ObjectDisposedException>(() => fs.Find(fq), "a closed forest search: ObjectDisposedException");
        // Handles left to the collector, in any order: their finalizers close them.
        for (int i = 0; i < 20; i++)
        {
            var lb = Bundle.Open(file);
            var la = new Aa(lb); var lo = new Overlay(lb); var lp = new Place(lb);
            var lq = AaQuery.Init(); lq.Capability = lb.Agent(0).Capability; lq.Goal = new Cell(9, 9);
            la.Find(lq, lo);
            new Aa(lb).Begin(lq, lo);   // a sliced query left unfinished holds the overlay
        }
        GC.Collect(); GC.WaitForPendingFinalizers(); GC.Collect();
        Ok(true, "bundles, workspaces and overlays left to the collector are finalized without a crash");
    }

    // A world of 2 x 2 tiles (csharp.sh bakes it from data/sample.map with
    // navbake world cut, tile and link) against the same map baked whole.
    static void Worlds(string file, string wholeFile)
    {
        string tiles = System.IO.Path.Combine(System.IO.Path.GetDirectoryName(file), "tiles");
        Func<uint, uint, string> tileFile = (c, r) => System.IO.Path.Combine(tiles, c + "_" + r + ".nbb");
        using (var whole = Bundle.Open(wholeFile))
        using (var w = World.Open(file))
        {
            var i = w.Info;
            Ok(i.Width == 64 && i.Height == 40 && i.Tile == 32 && i.Columns == 2 && i.Rows == 2 && i.Loaded == 0,
               "a world opens with its shape and no tile loaded");
            Ok(w.Bundle.AgentCount == whole.AgentCount && w.Bundle.Agent(1).Name == whole.Agent(1).Name,
               "its bundle holds the agent set");
            uint cap = whole.Agent(0).Capability;
            var ue = Throws<UnloadedException>(() => w.Reachable(cap, 1, new Cell(2, 2), new Cell(60, 36)),
                "a query on tiles not loaded: UnloadedException");
            Ok(ue != null && ue.Status == Status.Unloaded && ue.Needed.Length == 2 && ue.Needed[0].Column == 0 && ue.Needed[0].Row == 0
               && ue.Needed[1].Column == 1 && ue.Needed[1].Row == 1, "... naming the two tiles it needs");
            ulong empty = w.Bytes;
            w.Load(1, 0);
            Ok(w.IsLoaded(1, 0) && w.Info.Loaded == 1 && w.Bytes - empty >= (ulong)new System.IO.FileInfo(tileFile(1, 0)).Length,
               "a tile loads, its file counted in Bytes");
            w.Unload(1, 0);
            Ok(!w.IsLoaded(1, 0) && w.Bytes == empty, "and unloads");
            w.LoadCells(0, 0, 64, 40);
            Ok(w.Info.Loaded == 4, "LoadCells loads the tiles the rectangle meets");
            var rng = new Random(31);
            int bad = 0, yes = 0, checks = 0;
            for (int a = 0; a < whole.AgentCount; a++)
            {
                var ag = whole.Agent(a);
                for (int k = 0; k < 300; k++)
                {
                    var s = new Cell(rng.Next(64), rng.Next(40)); var g = new Cell(rng.Next(64), rng.Next(40));
                    int want = whole.Reachable(ag.Capability, ag.Size, s, g);
                    bool got = w.Reachable(ag.Capability, ag.Size, s, g);
                    if (want != (got ? 1 : 0)) bad++;
                    if (got) yes++;
                    checks++;
                }
            }
            Ok(bad == 0 && yes > 0 && yes < checks, "Reachable is nb_reachable's on the map baked whole (" + checks + " pairs)", bad + " differ");
            Throws<NavbakeException>(() => w.Load(2, 0), "a tile off the grid: NavbakeException", x => x.Status == Status.Outside);
            Throws<NavbakeException>(() => w.Reachable(cap, 1, new Cell(2, 2), new Cell(64, 2)), "a cell off the world", x => x.Status == Status.Outside);
            w.UnloadCells(0, 0, 64, 40);
            int asked = 0;
            w.SetByteLoader(t => { asked++; return System.IO.File.ReadAllBytes(tileFile(t.Column, t.Row)); });
            w.Load(0, 0);
            w.SetPathLoader(t => { asked++; return tileFile(t.Column, t.Row); });
            w.Load(1, 1);
            Ok(asked == 2 && w.IsLoaded(0, 0) && w.IsLoaded(1, 1) && w.Reachable(cap, 1, new Cell(2, 2), new Cell(60, 36)) == (whole.Reachable(cap, 1, new Cell(2, 2), new Cell(60, 36)) == 1),
               "tiles from a loader's bytes and paths answer");
            w.SetPathLoader(t => { throw new System.IO.FileNotFoundException("no tile " + t + " in the archive"); });
            var le = Throws<NavbakeException>(() => w.Load(1, 0), "a loader that throws fails the load");
            Ok(le != null && le.Status == Status.Io && le.Message.Contains("no tile 1_0 in the archive") && le.InnerException is System.IO.FileNotFoundException,
               "... with its message and its exception inside", le == null ? null : le.Message);
            w.SetPathLoader(t => tileFile(0, 0));
            Throws<NavbakeException>(() => w.Load(1, 0), "another tile's bundle: NB_ERR_MISMATCH", x => x.Status == Status.Mismatch && x.Message.Length > 0);
            w.ClearLoader();
            w.Load(1, 0);
            Ok(w.IsLoaded(1, 0), "ClearLoader: the tile folder again");
        }
        var wd = World.Open(file);
        var wb = wd.Bundle;
        wd.Load(0, 0);
        wd.Dispose();
        Throws<ObjectDisposedException>(() => wd.Load(0, 0), "a closed world used again: ObjectDisposedException");
        Throws<ObjectDisposedException>(() => wd.Reachable(1, 1, new Cell(2, 2), new Cell(3, 3)), "... a query on it too");
        Throws<ObjectDisposedException>(() => { var c = wb.AgentCount; }, "... and its bundle");
        Throws<NavbakeException>(() => World.Open(file + ".missing"), "a missing world: NavbakeException", x => x.Status == Status.Io && x.Message.Contains(".missing"));
        for (int k = 0; k < 10; k++)
        {
            var lw = World.Open(file);
            var lb = lw.Bundle;
            lw.Load(0, 0);
        }
        GC.Collect(); GC.WaitForPendingFinalizers(); GC.Collect();
        Ok(true, "worlds and their bundles left to the collector are finalized without a crash");
    }

    // Annotated A* and nearest across the tiles of the same world (WorldAa,
    // WorldOverlay) against the same queries on the map baked whole (Aa,
    // Place, Overlay), with and without blocked cells.
    // HAA*, line and random across the tiles, the budget and what is resident
    // (nb_world_haa_open(3), nb_world_line_find(3), nb_world_open(3)): against
    // world AA* and the place queries on the map baked whole.
    static void WorldMore(string file, string wholeFile)
    {
        using (var whole = Bundle.Open(wholeFile))
        using (var place = new Place(whole))
        using (var w = World.Open(file))
        using (var wa = new WorldAa(w))
        using (var wh = new WorldHaa(w))
        {
            var hq = HaaQuery.Init(); hq.SetAgent(whole.Agent(0)); hq.Start = new Cell(2, 2); hq.Goal = new Cell(60, 36);
            var ue = Throws<UnloadedException>(() => wh.Find(hq), "world HAA*, no tile loaded: UnloadedException");
            Ok(ue != null && ue.Needed.Length > 0 && ue.Needed.Length == wh.Needed().Length, "... naming the tiles it needs",
               ue == null ? null : string.Join(" ", Array.ConvertAll(ue.Needed, t => t.ToString())));
            HaaResult hr = default(HaaResult); bool named = true;
            for (int rounds = 0; rounds < 5; rounds++)
            {
                try { hr = wh.Find(hq); break; }
                catch (UnloadedException e) { named &= e.Needed.Length > 0; foreach (var t in e.Needed) { named &= !w.IsLoaded(t.Column, t.Row); w.Load(t.Column, t.Row); } }
            }
            Ok(named && hr.Status == PathStatus.Found, "loading the tiles world HAA* names answers it", hr.Status.ToString());
            w.LoadCells(0, 0, 64, 40);
            var rng = new Random(38);
            int bad = 0, found = 0, checks = 0; var first = new List<string>(); Cell[] path = null;
            for (int ai = 0; ai < whole.AgentCount; ai++)
            {
                var ag = whole.Agent(ai);
                foreach (var flags in new[] { 0u, Flags.HaaStraighten })
                {
                    var aq = AaQuery.Init(); aq.SetAgent(ag);
                    var q = HaaQuery.Init(); q.SetAgent(ag); q.Flags = flags;
                    for (int k = 0; k < 60; k++)
                    {
                        q.Start = aq.Start = new Cell(rng.Next(64), rng.Next(40)); q.Goal = aq.Goal = new Cell(rng.Next(64), rng.Next(40));
                        var want = wa.Find(aq); var r = wh.Find(q);
                        checks++;
                        if (r.Status != want.Status || (r.Status == PathStatus.Found && r.Length < want.Length - 1e-9))
                        {
                            bad++;
                            if (first.Count < 5) first.Add(ag.Name + " " + q.Start + " -> " + q.Goal + ": " + r.Status + " " + r.Length + ", AA* " + want.Status + " " + want.Length);
                        }
                        else if (r.Status == PathStatus.Found)
                        {
                            found++;
                            int n = wh.CopyPath(ref path);
                            if (n == 0 || path[0].X != q.Start.X || path[0].Y != q.Start.Y || path[n - 1].X != q.Goal.X || path[n - 1].Y != q.Goal.Y) bad++;
                        }
                    }
                }
            }
            Ok(bad == 0 && found > checks / 3 && found < checks, "world HAA* is complete and never shorter than world AA* (" + checks + " pairs, " + found + " found)", string.Join("\n", first));
            Ok(wh.Bytes > 0, "WorldHaa.Bytes");
            using (var wov = new WorldOverlay(w))
            {
                Ok(wh.Find(hq, wov).Status == PathStatus.Found, "world HAA* under an overlay blocking nothing");
                wov.Block(30, 10, 1, 1);
                Throws<NavbakeException>(() => wh.Find(hq, wov), "world HAA* under an overlay that blocks cells: refused", x => x.Status == Status.Arg && x.Message.Length > 0);
            }

            // The line of walk: Place.Line's status, end point and blocking cell.
            int lbad = 0, lchecks = 0, lfound = 0; var lfirst = new List<string>();
            for (int ai = 0; ai < whole.AgentCount; ai++)
            {
                var lq = LineQuery.Init(); lq.SetAgent(whole.Agent(ai));
                for (int k = 0; k < 80; k++)
                {
                    lq.Start = new Vec2(rng.NextDouble() * 63, rng.NextDouble() * 39); lq.Goal = new Vec2(rng.NextDouble() * 63, rng.NextDouble() * 39);
                    var want = place.Line(lq); var r = wa.Line(lq);
                    lchecks++; lfound += r.Status == PathStatus.Found ? 1 : 0;
                    if (r.Status != want.Status || r.Last.X != want.Last.X || r.Last.Y != want.Last.Y || r.Blocking.X != want.Blocking.X || r.Blocking.Y != want.Blocking.Y)
                    {
                        lbad++;
                        if (lfirst.Count < 5) lfirst.Add(lq.Start.X + "," + lq.Start.Y + " -> " + lq.Goal.X + "," + lq.Goal.Y + ": " + r.Status + ", whole " + want.Status);
                    }
                }
            }
            Ok(lbad == 0 && lfound > 0 && lfound < lchecks, "world line is Place.Line's on the map baked whole (" + lchecks + " segments)", string.Join("\n", lfirst));
            using (var wov = new WorldOverlay(w))
            using (var ov = new Overlay(whole))
            {
                var lq = LineQuery.Init(); lq.SetAgent(whole.Agent(0)); lq.Start = new Vec2(36, 2); lq.Goal = new Vec2(36, 37);
                Ok(wa.Line(lq).Status == PathStatus.Found, "a clear segment across tiles (0, 0) and (0, 1)");
                wov.Block(30, 20, 10, 2); ov.Block(30, 20, 10, 2);
                var want = place.Line(lq, ov); var r = wa.Line(lq, wov);
                Ok(r.Status == want.Status && r.Status != PathStatus.Found && r.Last.Y == want.Last.Y && r.Blocking.Y == want.Blocking.Y,
                   "world line under a WorldOverlay: Place.Line's under the same Overlay", r.Status + " " + r.Last.Y + ", whole " + want.Status + " " + want.Last.Y);
            }

            // Random cells: the whole bake's count, a cell standable there.
            int rbad = 0;
            for (int ai = 0; ai < whole.AgentCount; ai++)
            {
                var ag = whole.Agent(ai);
                var rq = RandomQuery.Init(); rq.SetAgent(ag); rq.Seed = 7;
                var nq = NearestQuery.Init(); nq.SetAgent(ag); nq.Radius = 0;
                for (int k = 0; k < 20; k++)
                {
                    var want = place.Random(rq); var r = wa.Random(rq, 0, 0, 64, 40);
                    nq.Point = r.Cell;
                    var near = place.Nearest(nq);
                    if (r.Status != PathStatus.Found || r.Cells != want.Cells || r.Cells == 0 || near.Status != PathStatus.Found
                        || near.Cell.X != r.Cell.X || near.Cell.Y != r.Cell.Y) rbad++;
                    rq.Seed = r.State;
                }
            }
            Ok(rbad == 0, "world random on the whole world: the whole bake's count of cells, the cell standable there", rbad + " draws differ");
            using (var wov = new WorldOverlay(w))
            {
                var rq = RandomQuery.Init(); rq.SetAgent(whole.Agent(0));
                var part = wa.Random(rq, 0, 0, 32, 20);
                wov.Block(0, 0, 32, 10);
                int wrong = 0, redrawn = 0;
                for (ulong seed = 0; seed < 20; seed++)
                {
                    rq.Seed = seed;
                    var r = wa.Random(rq, 0, 0, 32, 20, wov);
                    if (r.Cell.X >= 32 || r.Cell.Y < 10 || r.Cell.Y >= 20 || r.Cells != part.Cells) wrong++;
                    if (r.Draws > 1) redrawn++;
                }
                Ok(part.Cells > 0 && wrong == 0 && redrawn > 0, "world random in a rectangle under a WorldOverlay: cells in it, the blocked ones drawn again", wrong + " " + redrawn);
            }
            w.UnloadCells(0, 0, 64, 40);
            w.Load(0, 0);
            {
                var lq = LineQuery.Init(); lq.SetAgent(whole.Agent(0)); lq.Start = new Vec2(2, 20); lq.Goal = new Vec2(2, 37);
                var le = Throws<UnloadedException>(() => wa.Line(lq), "world line into a tile unloaded: UnloadedException");
                Ok(le != null && le.Needed.Length == 1 && le.Needed[0].Column == 0 && le.Needed[0].Row == 1, "... naming it");
                var rq = RandomQuery.Init(); rq.SetAgent(whole.Agent(0));
                var re = Throws<UnloadedException>(() => wa.Random(rq, 0, 0, 64, 40), "world random over tiles unloaded: UnloadedException");
                Ok(re != null && re.Needed.Length == 3 && !Array.Exists(re.Needed, t => t.Column == 0 && t.Row == 0), "... naming the three");
            }

            // The budget and what is resident.
            Ok(w.Resident > 0, "World.Resident > 0 with a tile loaded", w.Resident.ToString());
            w.UnloadCells(0, 0, 64, 40);
            string tiles = Path.Combine(Path.GetDirectoryName(file), "tiles");
            int asked = 0;
            w.SetPathLoader(t => { asked++; return Path.Combine(tiles, t.Column + "_" + t.Row + ".nbb"); });
            w.SetBudget(ulong.MaxValue);
            var bq = AaQuery.Init(); bq.SetAgent(whole.Agent(0)); bq.Start = new Cell(2, 2); bq.Goal = new Cell(60, 36);
            PathStatus bs;
            try { bs = wa.Find(bq, null, whole.Agent(0).Costs).Status; }
            catch (UnloadedException) { bs = PathStatus.None; }
            Ok(bs == PathStatus.Found && asked >= 2 && w.Resident > 0,
               "SetBudget with a loader: a query loads the tiles it needs", bs + ", " + asked + " loads, " + w.Resident + " resident");
            w.SetBudget(0);
            w.UnloadCells(0, 0, 64, 40);
            Throws<UnloadedException>(() => wa.Find(bq, null, whole.Agent(0).Costs), "SetBudget(0): queries load no more");
        }
        var wd = World.Open(file);
        wd.LoadCells(0, 0, 64, 40);
        var h1 = new WorldHaa(wd); var a1 = new WorldAa(wd);
        var h2 = new WorldHaa(wd);
        h1.Dispose(); h1.Dispose(); a1.Dispose();
        Throws<ObjectDisposedException>(() => h1.Find(HaaQuery.Init()), "a closed WorldHaa used again: ObjectDisposedException");
        Throws<ObjectDisposedException>(() => h1.Needed(), "... its Needed");
        Throws<ObjectDisposedException>(() => { var b = h1.Bytes; }, "... its Bytes");
        Throws<ObjectDisposedException>(() => a1.Line(LineQuery.Init()), "a closed WorldAa's Line");
        Throws<ObjectDisposedException>(() => a1.Random(RandomQuery.Init(), 0, 0, 8, 8), "... and Random");
        wd.Dispose();
        Throws<ObjectDisposedException>(() => new WorldHaa(wd), "a WorldHaa on a closed world: ObjectDisposedException");
        Throws<ObjectDisposedException>(() => { var r = wd.Resident; }, "a closed world's Resident");
        Throws<ObjectDisposedException>(() => wd.SetBudget(1), "... and SetBudget");
        var hq2 = HaaQuery.Init(); using (var b2 = Bundle.Open(wholeFile)) hq2.SetAgent(b2.Agent(0));
        hq2.Start = new Cell(2, 2); hq2.Goal = new Cell(60, 36);
        Ok(h2.Find(hq2).Status == PathStatus.Found, "a WorldHaa keeps its world open until it is closed");
        h2.Dispose();
    }

    static void WorldQueries(string file, string wholeFile)
    {
        using (var whole = Bundle.Open(wholeFile))
        using (var w = World.Open(file))
        using (var wa = new WorldAa(w))
        using (var aa = new Aa(whole))
        {
            var a0 = whole.Agent(0);
            var q = AaQuery.Init(); q.SetAgent(a0); q.Start = new Cell(2, 2); q.Goal = new Cell(60, 36);
            var ue = Throws<UnloadedException>(() => wa.Find(q, null, a0.Costs), "world AA*, no tile loaded: UnloadedException");
            Ok(ue != null && ue.Status == Status.Unloaded && ue.Message.Length > 0 && ue.Needed.Length == 2
               && Array.Exists(ue.Needed, t => t.Column == 0 && t.Row == 0) && Array.Exists(ue.Needed, t => t.Column == 1 && t.Row == 1),
               "... naming the two end tiles", ue == null ? null : string.Join(" ", Array.ConvertAll(ue.Needed, t => t.ToString())));
            // Load what each answer names until the query is answered.
            AaResult got = default(AaResult); int rounds = 0; bool named = true;
            for (; rounds < 5; rounds++)
            {
                try { got = wa.Find(q, null, a0.Costs); break; }
                catch (UnloadedException e) { foreach (var t in e.Needed) { named &= !w.IsLoaded(t.Column, t.Row); w.Load(t.Column, t.Row); } }
            }
            var wantR = aa.Find(q, null, a0.Costs);
            Ok(named && got.Status == PathStatus.Found && Math.Abs(got.Length - wantR.Length) < 1e-9,
               "loading the tiles it names answers with the whole bake's length (" + rounds + " rounds)", got.Length + " against " + wantR.Length);
            w.LoadCells(0, 0, 64, 40);
            var rects = new[] { new[] { 30, 10, 4, 12 }, new[] { 20, 30, 16, 3 }, new[] { 31, 31, 2, 2 }, new[] { 50, 5, 3, 30 } };
            using (var wov = new WorldOverlay(w))
            using (var ov = new Overlay(whole))
            {
                for (int pass = 0; pass < 2; pass++)
                {
                    var rng = new Random(34 + pass);
                    int bad = 0, found = 0, checks = 0; var first = new List<string>();
                    Cell[] path = null;
                    for (int ai = 0; ai < whole.AgentCount; ai++)
                    {
                        var ag = whole.Agent(ai);
                        foreach (var corner in new[] { Corner.Strict, Corner.Weak })
                        {
                            var t = AaQuery.Init(); t.SetAgent(ag); t.Corner = corner;
                            for (int k = 0; k < 80; k++)
                            {
                                t.Start = new Cell(rng.Next(64), rng.Next(40)); t.Goal = new Cell(rng.Next(64), rng.Next(40));
                                var want = aa.Find(t, pass == 1 ? ov : null, ag.Costs);
                                var r = wa.Find(t, pass == 1 ? wov : null, ag.Costs);
                                checks++;
                                if (r.Status != want.Status || Math.Abs(r.Length - want.Length) > 1e-9 || Math.Abs(r.Cost - want.Cost) > 1e-9)
                                {
                                    bad++;
                                    if (first.Count < 5) first.Add(ag.Name + " " + corner + " " + t.Start + " -> " + t.Goal + ": " + r.Status + " " + r.Length + ", whole " + want.Status + " " + want.Length);
                                }
                                else if (r.Status == PathStatus.Found)
                                {
                                    found++;
                                    int n = wa.CopyPath(ref path);
                                    if (n == 0 || path[0].X != t.Start.X || path[0].Y != t.Start.Y || path[n - 1].X != t.Goal.X || path[n - 1].Y != t.Goal.Y) bad++;
                                }
                            }
                        }
                    }
                    Ok(bad == 0 && found > checks / 3, (pass == 1 ? "under blocked rectangles (WorldOverlay / Overlay): " : "") +
                       "world AA* is Aa's on the map baked whole: status, length, cost (" + checks + " pairs, every agent, both corners)", string.Join("\n", first));
                    foreach (var rc in rects) { wov.Block(rc[0], rc[1], rc[2], rc[3]); ov.Block(rc[0], rc[1], rc[2], rc[3]); }
                }
                Ok(wov.Blocked(31, 31) && wov.Blocked(51, 34) && !wov.Blocked(29, 10) && !wov.Blocked(64, 0) && !wov.Blocked(-1, 0), "WorldOverlay.Blocked");
                wov.Unblock(30, 10, 4, 12);
                Ok(!wov.Blocked(31, 15), "WorldOverlay.Unblock");
                Throws<NavbakeException>(() => wov.Block(60, 0, 10, 1), "a block past the world's edge: NavbakeException", x => x.Status == Status.Arg && x.Message.Length > 0);
                wov.Dispose();
                Throws<ObjectDisposedException>(() => wa.Find(q, wov), "a closed WorldOverlay given to a query: ObjectDisposedException");
                Throws<ObjectDisposedException>(() => wov.Block(1, 1, 1, 1), "a closed WorldOverlay changed: ObjectDisposedException");
            }
            using (var place = new Place(whole))
            {
                var rng = new Random(36); int bad = 0, checks = 0;
                for (int ai = 0; ai < whole.AgentCount; ai++)
                {
                    var nq = NearestQuery.Init(); nq.SetAgent(whole.Agent(ai));
                    for (int k = 0; k < 60; k++)
                    {
                        nq.Point = new Cell(rng.Next(64), rng.Next(40));
                        var want = place.Nearest(nq); var r = wa.Nearest(nq);
                        checks++;
                        if (r.Status != want.Status || r.Cell.X != want.Cell.X || r.Cell.Y != want.Cell.Y || r.Distance != want.Distance) bad++;
                    }
                }
                Ok(bad == 0, "world nearest is Place.Nearest's on the map baked whole (" + checks + " points)", bad + " differ");
                w.Unload(1, 1);
                var nq2 = NearestQuery.Init(); nq2.SetAgent(whole.Agent(0)); nq2.Point = new Cell(62, 38);
                var ne = Throws<UnloadedException>(() => wa.Nearest(nq2), "world nearest in a tile unloaded: UnloadedException");
                Ok(ne != null && Array.Exists(ne.Needed, t => t.Column == 1 && t.Row == 1), "... naming it");
                w.Load(1, 1);
            }
            Throws<NavbakeException>(() => { var t = q; t.Goal = new Cell(64, 2); wa.Find(t, null, a0.Costs); }, "a cell off the world: NavbakeException", x => x.Status == Status.Outside && x.Message.Length > 0);
            // A steady loop: the workspace and the caller's path array do not grow the second time.
            {
                var rng = new Random(37); var qs = new AaQuery[200];
                for (int k = 0; k < qs.Length; k++) { qs[k] = q; qs[k].Start = new Cell(rng.Next(64), rng.Next(40)); qs[k].Goal = new Cell(rng.Next(64), rng.Next(40)); }
                Cell[] path = null;
                foreach (var t in qs) { wa.Find(t, null, a0.Costs); wa.CopyPath(ref path); }
                ulong bytes = wa.Bytes; var arr = path;
                foreach (var t in qs) { wa.Find(t, null, a0.Costs); wa.CopyPath(ref path); }
                Ok(wa.Bytes == bytes && ReferenceEquals(arr, path), "the same 200 queries again: the workspace and the path array do not grow");
            }
            wa.SetMaxNodes(5);
            var lim = wa.Find(q, null, a0.Costs);
            Ok(lim.Status == PathStatus.Limit, "SetMaxNodes: NB_PATH_LIMIT past the cap", lim.Status + " " + lim.Expanded + " " + q.Start + " " + q.Goal);
            wa.SetMaxNodes(0);
        }
        var wd = World.Open(file);
        wd.LoadCells(0, 0, 64, 40);
        var ws = new WorldAa(wd);
        var ws2 = new WorldAa(wd);
        var wq = AaQuery.Init(); wq.Capability = wd.Bundle.Agent(0).Capability; wq.Start = new Cell(2, 2); wq.Goal = new Cell(60, 36);
        ws2.Dispose();
        Throws<ObjectDisposedException>(() => ws2.Find(wq), "a closed WorldAa used again: ObjectDisposedException");
        Throws<ObjectDisposedException>(() => ws2.Nearest(NearestQuery.Init()), "... nearest too");
        Throws<ObjectDisposedException>(() => ws2.SetMaxNodes(1), "... and SetMaxNodes");
        ws2.Dispose();
        wd.Dispose();
        Throws<ObjectDisposedException>(() => new WorldAa(wd), "a WorldAa on a closed world: ObjectDisposedException");
        Throws<ObjectDisposedException>(() => new WorldOverlay(wd), "... a WorldOverlay too");
        Ok(ws.Find(wq).Status == PathStatus.Found, "a WorldAa keeps its world open until it is closed");
        ws.Dispose();
        for (int k = 0; k < 10; k++)
        {
            var lw = World.Open(file);
            lw.Load(0, 0);
            var la = new WorldAa(lw); var lo = new WorldOverlay(lw);
            lo.Block(3, 3, 1, 1);
            var lq = AaQuery.Init(); lq.Capability = lw.Bundle.Agent(0).Capability; lq.Start = new Cell(2, 2); lq.Goal = new Cell(3, 2);
            la.Find(lq, lo);
        }
        GC.Collect(); GC.WaitForPendingFinalizers(); GC.Collect();
        Ok(true, "worlds, world workspaces and overlays left to the collector are finalized without a crash");
    }

    static bool Same(byte[] a, byte[] b)
    {
        if (a.Length != b.Length) return false;
        for (int i = 0; i < a.Length; i++) if (a[i] != b[i]) return false;
        return true;
    }

    // The bake library (Baker): the map of the 1,000 scenario lines baked
    // in-process gives mkclear's bytes, its bundle answers the lines with
    // navbake scen's lengths; written with the HAA* graph, navbake scen run
    // on the file agrees with the lines; cancels, callbacks that throw and
    // bad input throw with the library's status and message.
    static void Baking(string map, string mkclearFile, string scen, string lengths)
    {
        string dir = Path.GetDirectoryName(mkclearFile);
        try { Baker.CheckAbi(); Ok(true, "nb_bake_abi_check accepts the binding's nb_bake_options"); }
        catch (NavbakeException e) { Ok(false, "nb_bake_abi_check accepts the binding's nb_bake_options", e.Message); }
        using (var b = new Baker())
        {
            b.ReadLevel(map);
            var bytes = b.Bake(new BakeSettings { Abstract = false });
            var want = File.ReadAllBytes(mkclearFile);
            Ok(Same(bytes, want), "Baker.Bake of " + Path.GetFileName(map) + ": mkclear's bytes (" + bytes.Length + ")");
            using (var baked = Bundle.OpenMemory(bytes)) Scenario(baked, scen, lengths, "baked by Baker: ");
            string outFile = Path.Combine(dir, "csharp-baked.nbk");
            var seen = new List<double>();
            b.Write(outFile, new BakeSettings { Progress = f => { seen.Add(f); return false; } });
            bool sorted = seen.Count > 0;
            for (int i = 1; i < seen.Count; i++) sorted &= seen[i] >= seen[i - 1];
            Ok(sorted && seen[seen.Count - 1] <= 1 && seen[0] >= 0, "Progress is told the fraction done, rising (" + seen.Count + " reports)");
            string err;
            string o = Cli("scen " + outFile + " " + scen, out err);
            Ok(o.Contains("1000 run, 0 differ"), "navbake scen on the bundle Baker wrote: the 1,000 lines", o + err);
            using (var baked = Bundle.Open(outFile))
            using (var haa = new Haa(baked))
                Ok(haa.Bytes > 0, "... which holds the HAA* graph (default settings)");
            string cancelled = Path.Combine(dir, "csharp-cancelled.nbk");
            Throws<NavbakeException>(() => b.Write(cancelled, new BakeSettings { Progress = f => true }),
                "a Progress returning true cancels: Status.Cancelled", x => x.Status == Status.Cancelled && x.Message.Length > 0);
            Ok(!File.Exists(cancelled), "... and writes nothing");
            Throws<NavbakeException>(() => b.Bake(new BakeSettings { Progress = f => { throw new InvalidOperationException("from the callback"); } }),
                "a Progress that throws cancels the bake", x => x.Status == Status.Cancelled && x.InnerException is InvalidOperationException && x.InnerException.Message == "from the callback");
            GC.Collect(); GC.WaitForPendingFinalizers();
            int calls = 0;
            b.Bake(new BakeSettings { Abstract = false, Progress = f => { calls++; GC.Collect(); return false; } });
            Ok(calls > 0, "the callback outlives collections during the bake (" + calls + " calls)");
            Throws<NavbakeException>(() => b.SetMap("type octile\nheight 2\nwidth 3\nmap\n...\n", "short.map"),
                "a short map: NavbakeException naming it", x => x.Message.Contains("short.map") && x.Status != Status.Ok);
            Throws<NavbakeException>(() => b.ReadLevel(Path.Combine(dir, "no-such.map")), "a missing level: its name in the message", x => x.Message.Contains("no-such.map"));
            Throws<NavbakeException>(() => b.Terrain("no-such-terrain"), "an unknown terrain: Status.NotFound", x => x.Status == Status.NotFound && x.Message.Contains("no-such-terrain"));
            Throws<ArgumentException>(() => b.SetGrid(new byte[3], 2, 2), "a grid of the wrong size: ArgumentException");
            Throws<NavbakeException>(() => b.SetGrid(new byte[] { 0, 0, 0, 77 }, 2, 2), "a terrain id past the legend's: NavbakeException", x => x.Message.Length > 0);
            b.SetGrid(new byte[] { 0, 0, 0, 0, 0, 0, Baker.Obstacle, 0, 0 }, 3, 3);
            using (var g = Bundle.OpenMemory(b.Bake(new BakeSettings { Abstract = false })))
            using (var ga = new Aa(g))
            {
                var q = AaQuery.Init(); q.SetAgent(g.Agent(0)); q.Start = new Cell(0, 0); q.Goal = new Cell(2, 2);
                var r = ga.Find(q);
                Ok(g.Width == 3 && g.Height == 3 && r.Status == PathStatus.Found && Math.Abs(r.Length - 2 * Math.Sqrt(2)) < 1e-9,
                   "a grid of ids bakes and answers (" + r.Length + ")");
            }
            Ok(b.TerrainCount >= 1, "TerrainCount");
            b.Dispose();
            Throws<ObjectDisposedException>(() => b.Bake(), "a closed Baker used again: ObjectDisposedException");
        }
    }
}
