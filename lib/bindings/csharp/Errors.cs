// Errors.cs: navbake's statuses as exceptions.  Every handle keeps an
// nb_err of its own in unmanaged memory (so a call passes a pointer and
// nothing is copied on success); a failed call throws NavbakeException
// with the status and the message the library wrote there.
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    /// <summary>A call navbake refused or failed: its status and its message.</summary>
    public class NavbakeException : Exception
    {
        public Status Status { get; private set; }
        public NavbakeException(Status status, string message) : base(message) { Status = status; }
        public NavbakeException(Status status, string message, Exception inner) : base(message, inner) { Status = status; }

        /// <summary>nb_status_str: a short constant description of a status.</summary>
        public static string Describe(Status status) { return Text.FromUtf8(Native.nb_status_str(status)); }
    }

    /// <summary>A world's query needs tiles that are not loaded (NB_ERR_UNLOADED): Needed lists them.</summary>
    public sealed class UnloadedException : NavbakeException
    {
        public WorldTile[] Needed { get; private set; }
        public UnloadedException(string message, WorldTile[] needed) : base(Status.Unloaded, message) { Needed = needed; }
    }

    /// <summary>An nb_err in unmanaged memory.</summary>
    internal sealed class ErrBuffer : IDisposable
    {
        internal IntPtr Ptr;
        internal ErrBuffer() { Ptr = Marshal.AllocHGlobal(Native.ErrBytes); Marshal.WriteInt32(Ptr, 0); Marshal.WriteByte(Ptr, 4, 0); }
        public void Dispose() { if (Ptr != IntPtr.Zero) { Marshal.FreeHGlobal(Ptr); Ptr = IntPtr.Zero; } }
        ~ErrBuffer() { Dispose(); }

        internal string Message
        {
            get
            {
                int n = 0;
                while (n < Native.ErrMsgMax && Marshal.ReadByte(Ptr, 4 + n) != 0) n++;
                var b = new byte[n];
                Marshal.Copy(new IntPtr(Ptr.ToInt64() + 4), b, 0, n);
                return System.Text.Encoding.UTF8.GetString(b);
            }
        }

        /// <summary>The handle a _open call made, or (its status not NB_OK) the exception.</summary>
        internal T Opened<T>(Status st, T h) where T : SafeHandle
        {
            if (st != Status.Ok) { h.Dispose(); Throw(st); }
            return h;
        }

        /// <summary>Throws for a status other than NB_OK, with the message the call wrote.</summary>
        internal void Check(Status st) { if (st != Status.Ok) Throw(st); }

        internal void Throw(Status st, Exception inner = null)
        {
            string m = Message;
            if (m.Length == 0) m = NavbakeException.Describe(st);
            throw new NavbakeException(st, m, inner);
        }

        /// <summary>Writes a status and message, as the library does (a loader's error).</summary>
        internal static void Write(IntPtr err, Status st, string message)
        {
            if (err == IntPtr.Zero) return;
            var b = System.Text.Encoding.UTF8.GetBytes(message);
            int n = Math.Min(b.Length, Native.ErrMsgMax - 1);
            Marshal.WriteInt32(err, (int)st);
            Marshal.Copy(b, 0, new IntPtr(err.ToInt64() + 4), n);
            Marshal.WriteByte(err, 4 + n, 0);
        }
    }

    /// <summary>One-shot calls with no handle to hold an nb_err.</summary>
    internal static class Errs
    {
        [ThreadStatic] static ErrBuffer local;
        internal static ErrBuffer Local { get { if (local == null) local = new ErrBuffer(); return local; } }
    }
}
