/* palette.c: the colours of every picture, chosen so that the usual
 * terrains look like themselves, a heat map reads from dark (tight) to
 * light (open), and neighbouring components never look alike. */
#include <math.h>
#include <string.h>

#include "render.h"

uint32_t nbr_hsv(double h, double s, double v)
{
    h = (h - floor(h)) * 6;
    int i = (int)h % 6;
    double f = h - floor(h), p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r, g, b;
    switch (i) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
    }
    return ((uint32_t)lround(r * 255) << 16) | ((uint32_t)lround(g * 255) << 8) |
           (uint32_t)lround(b * 255);
}

uint32_t nbr_terrain_colour(const char *name, unsigned terrain)
{
    static const struct {
        const char *name;
        uint32_t rgb;
    } named[] = {
        {"ground", 0xe9dfc4}, {"grass", 0xa8d08d}, {"swamp", 0x8c9a52}, {"water", 0x4a8fd6},
        {"trees", 0x2e7d32},  {"forest", 0x2e7d32}, {"sand", 0xf2d98b},  {"road", 0xc9c9c9},
        {"mud", 0x8d6e4a},    {"snow", 0xf4f7fb},   {"ice", 0xbfe3f2},   {"lava", 0xe0522d},
    };
    static const uint32_t others[] = {0xe6a9c9, 0x9bd3c9, 0xd9b36c, 0xa9a3de, 0xe08f6b, 0x7fb3d5,
                                      0xc4d86b, 0xd98cb3, 0x8fcf8f, 0xb38f6b, 0x6bb3b3, 0xd9d96b};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcmp(name, named[i].name) == 0)
            return named[i].rgb;
    return others[terrain % (sizeof others / sizeof others[0])];
}

uint32_t nbr_heat_colour(unsigned v, unsigned cap)
{
    return nbr_heat_fraction(cap <= 1 ? 1.0 : (double)(v - 1) / (double)(cap - 1));
}

uint32_t nbr_heat_fraction(double t)
{
    /* Stops of the gradient, from 0 to 1. */
    static const double stop[5][3] = {{0x3b, 0x0f, 0x70}, {0x8c, 0x29, 0x81}, {0xde, 0x49, 0x68},
                                      {0xfe, 0x9f, 0x6d}, {0xfc, 0xfd, 0xbf}};
    t = t < 0 || t != t ? 0 : t > 1 ? 1 : t;
    double pos = t * 4;
    int i = (int)pos;
    if (i >= 4)
        i = 3;
    double f = pos - i;
    uint32_t rgb = 0;
    for (int k = 0; k < 3; k++)
        rgb = (rgb << 8) | (uint32_t)lround(stop[i][k] + (stop[i + 1][k] - stop[i][k]) * f);
    return rgb;
}

uint32_t nbr_component_colour(unsigned long k)
{
    double h = fmod((double)k * 0.6180339887498949, 1.0);
    /* Alternate saturation and value too, so that many components still
     * differ where hues come close. */
    double s = (k % 3 == 0) ? 0.55 : (k % 3 == 1) ? 0.75 : 0.95;
    double v = (k % 2) ? 0.92 : 0.78;
    return nbr_hsv(h, s, v);
}

uint32_t nbr_series_colour(unsigned i)
{
    static const uint32_t series[] = {0xd62728, 0x1f77b4, 0xff7f0e, 0x9467bd,
                                      0x17becf, 0xe377c2, 0x8c564b, 0xbcbd22};
    return series[i % (sizeof series / sizeof series[0])];
}
