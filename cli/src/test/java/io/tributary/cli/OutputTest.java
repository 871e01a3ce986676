package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The TSV and JSON forms of an answer. */
class OutputTest {

    private static String print(String body, boolean json) {
        StringWriter out = new StringWriter();
        try (PrintWriter writer = new PrintWriter(out)) {
            Output.print(writer, body, json);
        }
        return out.toString();
    }

    @Test
    void json_is_the_body_as_it_came() {
        String body = "{\"z\":1,\"a\":[true,null],\"m\":{\"k\":\"v\"}}";
        assertThat(print(body, true)).isEqualTo(body + "\n");
    }

    @Test
    void a_page_prints_its_items_with_every_key_met_as_a_column_in_order() {
        String body = "{\"items\":[{\"id\":2,\"clientId\":\"c\",\"ip\":null},{\"id\":3,\"reason\":\"r\"}],\"total\":2}";
        assertThat(print(body, false)).isEqualTo("id\tclientId\tip\treason\n2\tc\t\t\n3\t\t\tr\n");
    }

    @Test
    void an_object_prints_key_value_lines_with_nested_objects_dotted() {
        String body = "{\"session\":{\"clientId\":\"m-1\",\"connected\":true},\"presence\":null,"
                + "\"publish\":[\"a/#\",\"b\"],\"lag\":2.0,\"ratio\":0.5}";
        assertThat(print(body, false))
                .isEqualTo("session.clientId\tm-1\nsession.connected\ttrue\npresence\t\npublish\ta/# b\nlag\t2\n"
                        + "ratio\t0.5\n");
    }

    @Test
    void cells_flatten_text_and_keep_nested_structures_as_compact_json_without_nulls() {
        String body = "[{\"text\":\"a\\tb\\nc\",\"parts\":[{\"p\":0,\"x\":null}]}]";
        assertThat(print(body, false)).isEqualTo("text\tparts\na b c\t[{\"p\":0}]\n");
    }

    @Test
    void an_empty_body_prints_an_empty_line() {
        assertThat(print("", false)).isEqualTo("\n");
        assertThat(print(null, false)).isEqualTo("\n");
    }
}
