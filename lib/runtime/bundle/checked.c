/* checked.c: a reader's check of a whole section, made once per bundle
 * and shared by every handle and thread (bundle.h).
 *
 * The bundle is read-only once open, so the check's answer never changes:
 * the first caller claims the section (NONE -> RUNNING), checks, stores
 * the answer and publishes it (-> OK or BAD, with release order so that a
 * reader that sees it sees the message too).  A caller that finds the
 * check running elsewhere checks on its own instead of waiting: no lock,
 * nothing platform-specific, and never a wrong answer.  A check that ran
 * out of memory (the scratch some checks take) says nothing about the
 * bundle: it is given back (-> NONE), and the next caller checks again. */
#include "bundle/bundle.h"

nb_status nbi_section_checked(const nb_bundle *b, size_t index,
                              nb_status (*check)(const nb_bundle *b, size_t index, nb_err *err),
                              nb_err *err)
{
    /* The answer is the bundle's own state, kept beside the section it is about (the bundle
     * owns it; callers see the bundle as const). */
    struct nbi_section *s = (struct nbi_section *)&b->sections[index];
    unsigned state = atomic_load_explicit(&s->check, memory_order_acquire);
    if (state == NBI_CHECK_OK)
        return NB_OK;
    if (state == NBI_CHECK_BAD) {
        if (err) {
            err->code = s->check_status;
            memcpy(err->msg, s->check_msg, sizeof err->msg);
        }
        return s->check_status;
    }
    unsigned none = NBI_CHECK_NONE;
    if (state != NBI_CHECK_NONE ||
        !atomic_compare_exchange_strong_explicit(&s->check, &none, NBI_CHECK_RUNNING,
                                                 memory_order_acq_rel, memory_order_acquire)) {
        if (none == NBI_CHECK_OK || none == NBI_CHECK_BAD)
            return nbi_section_checked(b, index, check, err); /* it has just been published */
        return check(b, index, err);                           /* running elsewhere */
    }
    nb_err mine;
    nb_status st = check(b, index, &mine);
    if (st == NB_ERR_NOMEM) {
        if (err)
            *err = mine;
        atomic_store_explicit(&s->check, NBI_CHECK_NONE, memory_order_release);
        return st;
    }
    if (st != NB_OK) {
        s->check_status = st;
        memcpy(s->check_msg, mine.msg, sizeof s->check_msg);
        if (err)
            *err = mine;
    }
    atomic_store_explicit(&s->check, st == NB_OK ? NBI_CHECK_OK : NBI_CHECK_BAD,
                          memory_order_release);
    return st;
}
