package io.tributary.perf.cli;

import io.tributary.perf.load.Role;
import io.tributary.perf.scenario.Durations;
import io.tributary.perf.scenario.Endpoint;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Typed option values, each checked as it is parsed so that a typo fails before any connection is opened. picocli
 * puts the option's name before each message ("Invalid value for option '--scale': ...").
 */
final class Converters {

    private Converters() {}

    /** A number above zero: --scale, --rate-factor, --ramp. */
    public static final class PositiveNumber implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            try {
                double d = Double.parseDouble(value);
                if (d > 0 && !Double.isInfinite(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("'" + value + "' must be a number > 0");
        }
    }

    /** A whole number above zero: thread, address and connection counts. */
    public static final class PositiveWhole implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                int n = Integer.parseInt(value.trim());
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("'" + value + "' must be a whole number > 0");
        }
    }

    /** 500ms, 30s, 5m, 24h, 1d, or seconds. */
    public static final class Span implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Duration d = Durations.parse(value);
            if (d == null) {
                throw new TypeConversionException("'" + value + "' is not a duration like 30s, 500ms, 5m");
            }
            return d;
        }
    }

    /** Run ids and labels: they end up in client ids, topics and file names. */
    public static final class Id implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                return checkedId(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    public static final class RoleName implements ITypeConverter<Role> {
        @Override
        public Role convert(String value) {
            try {
                return Role.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("must be publishers, subscribers or all, not '" + value + "'");
            }
        }
    }

    /** host:port or tls://host:port. */
    public static final class Target implements ITypeConverter<Endpoint> {
        @Override
        public Endpoint convert(String value) {
            try {
                return Endpoint.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static String checkedId(String value) {
        if (!value.matches("[A-Za-z0-9._-]{1,40}")) {
            throw new IllegalArgumentException("'" + value + "' must be 1-40 letters, digits, '.', '_' or '-'");
        }
        return value;
    }
}
