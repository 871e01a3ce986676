package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {

    @Test
    void quoted_fields_doubled_quotes_and_both_line_ends() {
        assertThat(Csv.parse("a,b\r\n\"x,1\",\"say \"\"hi\"\"\"\nlast,"))
                .isEqualTo(List.of(List.of("a", "b"), List.of("x,1", "say \"hi\""), List.of("last", "")));
    }

    @Test
    void a_quoted_field_may_span_lines_and_a_blank_line_is_one_empty_field() {
        assertThat(Csv.parse("a\n\"1\n2\"\n\n")).isEqualTo(List.of(List.of("a"), List.of("1\n2"), List.of("")));
    }
}
