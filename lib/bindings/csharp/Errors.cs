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

        /// <summary>nb_status_str: a short constant description of a status.</summary>
        public static string Describe(Status status) { return Text.FromUtf8(Native.nb_status_str(status)); }
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

        internal void Throw(Status st)
        {
            string m = Message;
            if (m.Length == 0) m = NavbakeException.Describe(st);
            throw new NavbakeException(st, m);
        }
    }

    /// <summary>One-shot calls with no handle to hold an nb_err.</summary>
    internal static class Errs
    {
        [ThreadStatic] static ErrBuffer local;
        internal static ErrBuffer Local { get { if (local == null) local = new ErrBuffer(); return local; } }
    }
}
