/* angle.h: angles in radians, shared by curves, sweeps and forests. */
#ifndef NB_ANGLE_H
#define NB_ANGLE_H

#include <math.h>

#define NBI_PI 3.1415926535897932384626433832795
#define NBI_TWO_PI 6.283185307179586476925286766559
#define NBI_HALF_PI 1.5707963267948966192313216916398

/* a reduced to [0, 2 pi): how far round a circle, in the positive sense,
 * an angle lies from 0. */
static inline double nbi_angle_mod(double a)
{
    /* Differences of angles in [-pi, pi] need one step at most. */
    if (a >= 0 && a < NBI_TWO_PI)
        return a;
    if (a < 0 && a >= -NBI_TWO_PI) {
        a += NBI_TWO_PI;
        return a >= NBI_TWO_PI ? 0 : a;
    }
    a = fmod(a, NBI_TWO_PI);
    if (a < 0)
        a += NBI_TWO_PI;
    return a >= NBI_TWO_PI ? 0 : a;
}

#endif
