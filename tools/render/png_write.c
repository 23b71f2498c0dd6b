/* png_write.c: the raster as a PNG file, through libpng when configure
 * found it (HAVE_PNG).  8-bit RGB, no interlacing. */
#include "config.h"

#include "canvasint.h"

#ifdef HAVE_PNG
#include <png.h>

/* libpng reports errors by longjmp; the message is kept for nb_err. */
struct png_failure {
    char msg[200];
};

static void on_error(png_structp png, png_const_charp msg)
{
    struct png_failure *f = png_get_error_ptr(png);
    snprintf(f->msg, sizeof f->msg, "%s", msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

nb_status nbr_png_write(const nbr_canvas *c, FILE *f, const char *name, nb_err *err)
{
    struct png_failure failure = {""};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return nbb_fail(err, NB_ERR_NOMEM, "%s: out of memory for libpng", name);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return nbb_fail(err, NB_ERR_IO, "%s: cannot write PNG: %s", name,
                        failure.msg[0] ? failure.msg : "libpng failed");
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, c->width, c->height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < c->height; y++) {
        png_write_row(png, c->rgb + (size_t)y * c->width * 3);
        if (c->watch)
            c->watch(c->watch_arg, y + 1, c->height);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return NB_OK;
}

#else

nb_status nbr_png_write(const nbr_canvas *c, FILE *f, const char *name, nb_err *err)
{
    (void)c;
    (void)f;
    return nbb_fail(err, NB_ERR_UNSUPPORTED, "%s: this navbake was built without libpng", name);
}

#endif
