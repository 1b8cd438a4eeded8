/*
 * The TPV decoder: gpsd's TPV lines, read without libgps's generic
 * unpacker. See tpv.h for what it takes and what it leaves to libgps.
 *
 * Why: libgps reads a TPV through json_read_object, which sets some 60
 * defaults, collects every attribute name and value into buffers, finds
 * each name by strcmp against that table, and parses the time with
 * strptime. Measured under callgrind on a live daemon, that was about
 * 50 k instructions per TPV, two thirds of everything locationd did per
 * fix. This reads the one canonical shape gpsd writes in one pass and
 * only the 13 members locationd uses: about 5.4 k for a 22-member TPV, in
 * 2.4 kB of code kept small (its loops rolled), since it runs from cold
 * caches once a fix.
 *
 * Equal to libgps by construction, and checked against it (the CGPS
 * tests decode every TPV of gpsd's regression corpus and generated ones
 * both ways and compare bit for bit):
 *   numbers  libgps's safe_atof takes the digits as an integer (exact up
 *            to 2^53) and divides or multiplies once by a power of ten
 *            (exact up to 10^22): one correctly rounded operation. This
 *            does the same and only in that range; any other number
 *            leaves the line to libgps.
 *   time     libgps: strptime("%Y-%m-%dT%H:%M:%S"), its own mkgmtime,
 *            and nanoseconds as (long)(strtod(".fff") * 1e9). The same
 *            arithmetic here for years 1970–9999 with two-digit fields.
 *   mode     atoi of the token; 0 (gpsd's "not seen") means unknown.
 *   others   a non-finite value is never stored (NaN stays unknown).
 */
#include "tpv.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The loops below are kept rolled (`#pragma clang loop unroll(disable)`):
 * the decoder runs once a fix from cold caches, where every line of code
 * it touches costs more than the few instructions unrolling saves
 * (docs/performance.md, "The gpsd reader's lines"). */

/* 10^0 … 10^22: every one exact in a double. */
static const double exact_powers[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* A JSON number token at *p with at most 18 digits whose integer value is
 * at most 2^53 and whose decimal exponent is within ±22; the pointer is
 * moved past it. false for anything else (libgps decides). */
static bool fast_number(const char **p, double *out)
{
    const char *s = *p;
    bool negative = *s == '-';
    if (negative)
        s++;
    /* Digits accumulate without a check each: past 18 of them the value
     * may wrap, and the count below refuses it. */
    uint64_t digits = 0;
    const char *start = s;
    while ((unsigned)(*s - '0') < 10)
        digits = digits * 10 + (uint64_t)(*s++ - '0');
    int count = (int)(s - start), scale = 0;
    if (*s == '.') {
        const char *fraction = ++s;
        while ((unsigned)(*s - '0') < 10)
            digits = digits * 10 + (uint64_t)(*s++ - '0');
        scale = -(int)(s - fraction);
        count -= scale;
    }
    if (count == 0 || count > 18)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        bool minus = false;
        if (*s == '+' || *s == '-')
            minus = *s++ == '-';
        int exponent = 0, exponent_digits = 0;
        while ((unsigned)(*s - '0') < 10) {
            exponent = exponent * 10 + (*s++ - '0');
            if (++exponent_digits > 3)
                return false;
        }
        if (exponent_digits == 0)
            return false;
        scale += minus ? -exponent : exponent;
    }
    if (digits > (UINT64_C(1) << 53) || scale < -22 || scale > 22)
        return false;
    double value = (double)digits;
    value = scale < 0 ? value / exact_powers[-scale] : value * exact_powers[scale];
    *out = negative ? -value : value;
    *p = s;
    return true;
}

/* gpsd's time string "YYYY-MM-DDTHH:MM:SS[.f…]Z" (the part between the
 * quotes, `length` bytes), as libgps computes it. The seven two-digit
 * fields (century, year, month, day, hour, minute, second) are read by one
 * loop and checked against strptime's limits by another: little code, run
 * once a TPV from cold caches. */
static bool fast_time(const char *s, size_t length, int64_t *sec, long *nsec)
{
    if (length < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
        s[length - 1] != 'Z')
        return false;
    static const unsigned char at[7] = {0, 2, 5, 8, 11, 14, 17};
    /* strptime's own limits for month to second; the year is checked below. */
    static const unsigned char lowest[7] = {0, 0, 1, 1, 0, 0, 0};
    static const unsigned char highest[7] = {99, 99, 12, 31, 23, 59, 60};
    int field[7];
#pragma clang loop unroll(disable)
    for (int i = 0; i < 7; i++) {
        unsigned tens = (unsigned)(s[at[i]] - '0'), ones = (unsigned)(s[at[i] + 1] - '0');
        if (tens > 9 || ones > 9)
            return false;
        field[i] = (int)(tens * 10 + ones);
        if (field[i] < lowest[i] || field[i] > highest[i])
            return false;
    }
    int year = field[0] * 100 + field[1], month = field[2], day = field[3];
    int hour = field[4], minute = field[5], second = field[6];
    /* From 1970, where mkgmtime's truncating divisions are floors. */
    if (year < 1970)
        return false;
    double fraction = 0;
    if (length > 20) {
        /* ".f…Z": the fraction, read as strtod reads ".f…" — by the same
         * number reader as the members (a fraction that one refuses, libgps
         * reads). */
        const char *end = s + 19;
        if (s[19] != '.' || !fast_number(&end, &fraction) || end != s + length - 1)
            return false;
    }
    static const int days_before_month[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    int64_t days = (int64_t)(year - 1970) * 365 + days_before_month[month - 1];
    days += (year - 1968) / 4;
    days -= (year - 1900) / 100;
    days += (year - 1600) / 400;
    bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    if (leap && month <= 2)
        days--;
    days += day - 1;
    int64_t seconds = ((days * 24 + hour) * 60 + minute) * 60 + second;
    /* libgps clamps anything later to 9999-12-31T23:59:59; left to it. */
    if (seconds > INT64_C(253402300799))
        return false;
    *sec = seconds;
    *nsec = (long)(fraction * 1e9);
    return true;
}

/* Skips a string value's body at *p (just after the opening quote) to just
 * after its closing quote. Strings with escapes, or longer than libgps's
 * shortest string buffer, are left to libgps. (A byte loop, not strchr and
 * memchr: the strings are a few dozen bytes, and two library functions more
 * are code a fix runs from cold caches.) */
static bool skip_string(const char **p, const char **start, size_t *length)
{
    const char *s = *p, *end = s;
#pragma clang loop unroll(disable)
    while (*end != '"') {
        if (*end == '\\' || *end == '\0' || end - s >= 63)
            return false;
        end++;
    }
    *start = s;
    *length = (size_t)(end - s);
    *p = end + 1;
    return true;
}

/* The bytes a member's name cannot hold: its closing quote, the line's
 * end, and a backslash (an escape, which libgps reads its own way). */
static const bool ends_name[256] = {['"'] = true, ['\0'] = true, ['\\'] = true};

/* The bytes that end (or may not be in) a token libgps ignores. */
static const bool ends_token[256] = {
    [','] = true, ['}'] = true, ['\0'] = true, ['"'] = true, ['['] = true,
    ['{'] = true, [' '] = true, ['\t'] = true, ['\r'] = true, ['\n'] = true,
};

/* The members locationd reads, by name. The numbers come first, in the
 * order of their fields in cgps_fix: a number's member is its index in the
 * decoder's table of values. */
typedef enum {
    M_LAT,
    M_LON,
    M_ALT_MSL,
    M_ALT_HAE,
    M_GEOID_SEP,
    M_EPH,
    M_EPV,
    M_EPX,
    M_EPY,
    M_SPEED,
    M_TRACK,
    M_NUMBERS, /* how many of them */
    M_OTHER = M_NUMBERS,
    M_TIME,
    M_MODE,
    M_DEVICE,
    M_CLASS,
} member;

/* A name of at most 8 bytes as one integer, its first byte lowest (a name
 * holds no NUL: the scan stops there). */
static inline uint64_t name_key(const char *name, size_t length)
{
    uint64_t key = 0;
#pragma clang loop unroll(disable)
    for (size_t i = 0; i < length; i++)
        key |= (uint64_t)(unsigned char)name[i] << (8 * i);
    return key;
}

/* Each name read as one integer and compared whole: a few compares a
 * member, in little code (every member of a TPV comes through here). */
static member member_named(const char *name, size_t length)
{
    if (length > 8)
        return M_OTHER;
    uint64_t key = name_key(name, length);
#define IS(text) (key == name_key(text, sizeof(text) - 1))
    switch (name[0]) {
    case 't':
        return IS("time") ? M_TIME : IS("track") ? M_TRACK : M_OTHER;
    case 'm':
        return IS("mode") ? M_MODE : M_OTHER;
    case 'l':
        return IS("lat") ? M_LAT : IS("lon") ? M_LON : M_OTHER;
    case 'a':
        return IS("altHAE") ? M_ALT_HAE : IS("altMSL") ? M_ALT_MSL : M_OTHER;
    case 'c':
        return IS("class") ? M_CLASS : M_OTHER;
    case 'd':
        return IS("device") ? M_DEVICE : M_OTHER;
    case 'g':
        return IS("geoidSep") ? M_GEOID_SEP : M_OTHER;
    case 'e':
        return IS("eph") ? M_EPH : IS("epv") ? M_EPV : IS("epx") ? M_EPX : IS("epy") ? M_EPY : M_OTHER;
    case 's':
        return IS("speed") ? M_SPEED : M_OTHER;
    default:
        return M_OTHER;
    }
#undef IS
}

bool cgps_tpv_decode(const char *line, cgps_fix *fix, int32_t *mode_given, char *device, size_t device_size)
{
    static const char opening[] = "{\"class\":\"TPV\",";
    if (strncmp(line, opening, sizeof opening - 1) != 0)
        return false;
    const char *p = line + sizeof opening - 1;

    /* The numbers by member, and a bit per member read (every number read
     * is finite: at most 2^53 × 10^22). */
    double values[M_NUMBERS];
    for (int i = 0; i < M_NUMBERS; i++)
        values[i] = NAN;
    uint32_t read_numbers = 0;
    int64_t time_sec = 0;
    long time_nsec = 0;
    int mode = 0;
    const char *device_text = NULL;
    size_t device_length = 0;

    for (;;) {
        if (*p != '"')
            return false;
        const char *name = ++p;
        while (!ends_name[(unsigned char)*p])
            p++;
        size_t name_length = (size_t)(p - name);
        /* libgps's attribute buffer holds 30 bytes of a name. */
        if (*p != '"' || name_length == 0 || name_length > 30)
            return false;
        p++;
        if (*p++ != ':')
            return false;
        member which = member_named(name, name_length);

        if (which == M_CLASS) {
            /* "class" a second time: the shim's guard calls the line
             * unreadable (cgps.c, classify), and only the guard decides. */
            return false;
        } else if (*p == '"') {
            p++;
            const char *text;
            size_t length;
            if (!skip_string(&p, &text, &length))
                return false;
            if (which == M_TIME) {
                if (!fast_time(text, length, &time_sec, &time_nsec))
                    return false;
            } else if (which == M_DEVICE) {
                device_text = text;
                device_length = length;
            } else if (which != M_OTHER) {
                return false; /* a quoted number: libgps's error to report */
            }
        } else if (which == M_MODE) {
            const char *s = p;
            if (*s == '-')
                s++;
            int value = 0, count = 0;
#pragma clang loop unroll(disable)
            while (*s >= '0' && *s <= '9') {
                value = value * 10 + (*s++ - '0');
                if (++count > 9)
                    return false;
            }
            if (count == 0 || (*s != ',' && *s != '}'))
                return false;
            mode = *p == '-' ? -value : value;
            p = s;
        } else if (which == M_TIME || which == M_DEVICE) {
            return false; /* an unquoted time or device */
        } else if (which == M_OTHER) {
            /* A member locationd does not read: its token as libgps takes it
             * (up to a comma or brace), the number unread. Longer than
             * libgps's 512-byte value buffer, or an array, an object or
             * white space, and libgps is left to judge. */
            const char *s = p;
            while (!ends_token[(unsigned char)*s])
                s++;
            if (s == p || s - p > 500 || (*s != ',' && *s != '}'))
                return false;
            p = s;
        } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
            if (!fast_number(&p, &values[which]))
                return false;
            read_numbers |= 1u << which;
        } else {
            /* true, false, null, arrays, objects: not in a TPV gpsd writes. */
            return false;
        }

        if (*p == ',') {
            p++;
            continue;
        }
        if (*p != '}')
            return false;
        p++;
        /* gpsd ends its lines with \r\n; the newline is already gone. */
        while (*p == '\r' || *p == ' ' || *p == '\t')
            p++;
        if (*p != '\0')
            return false;
        break;
    }

    /* As the shim's copy from libgps's fix (copy_fix in cgps.c). */
    cgps_fix read = {0};
    if (time_sec != 0 && time_nsec >= 0 && time_nsec < 1000000000L) {
        read.time_sec = time_sec;
        read.time_nsec = (int32_t)time_nsec;
        read.set |= CGPS_HAS_TIME;
    }
    if (mode >= 1 && mode <= 3) {
        read.mode = mode;
        read.set |= CGPS_HAS_MODE;
    }
    read.latitude = values[M_LAT];
    read.longitude = values[M_LON];
    if ((read_numbers & 3u) != 3u)
        read.latitude = read.longitude = NAN;
    else
        read.set |= CGPS_HAS_LATLON;
    read.alt_msl = values[M_ALT_MSL];
    read.alt_hae = values[M_ALT_HAE];
    read.geoid_sep = values[M_GEOID_SEP];
    read.eph = values[M_EPH];
    read.epv = values[M_EPV];
    read.epx = values[M_EPX];
    read.epy = values[M_EPY];
    read.speed = values[M_SPEED];
    read.track = values[M_TRACK];
    /* The other numbers' bits follow LATLON's in their members' order. */
    _Static_assert(CGPS_HAS_ALT_MSL == 1u << (M_ALT_MSL + 1) && CGPS_HAS_TRACK == 1u << (M_TRACK + 1),
                   "the members' order is the bits' order");
    read.set |= (read_numbers >> M_ALT_MSL) << (M_ALT_MSL + 1);
    *fix = read;
    *mode_given = mode;
    /* The receiver's path, as libgps copies it into dev.path (empty when the TPV names none). */
    if (device_size > 0) {
        size_t n = device_length < device_size - 1 ? device_length : device_size - 1;
        if (n > 0)
            memcpy(device, device_text, n);
        device[n] = '\0';
    }
    return true;
}
