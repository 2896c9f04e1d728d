"""The embedded engine's simulations in the real window (issue 18.7): throttling switched on from
a table's Settings view, a provisioned table written past its burst capacity by an SDK through
the shared endpoint, and the throttled count rising on screen.

The test makes its own table (`ThrottleE2E`, one write unit a second) and leaves the data folder
as it found it: the table deleted and the simulations off, so no other test meets throttling.
"""

import os
import pathlib
import socket

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError
from selenium.webdriver.common.by import By

from test_collections_view import screenshots_light_and_dark
from window import click, click_xpath, css, engine_ready, open_view, present, text_of, type_into, wait_for

TABLE = "ThrottleE2E"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def share_engine(driver) -> str:
    """Shares the embedded engine from its sidebar entry and returns the endpoint URL shown."""
    engine_ready(driver)
    sharing = present(driver, '[data-testid="connection-embedded"] [data-testid="share-engine"]', "the embedded engine's Share form")
    type_into(driver, css(sharing, "input"), str(free_port()), "the share port")
    click_xpath(driver, ".//button[normalize-space()='Share']", "Share", scope=sharing)
    return wait_for(driver, "the shared endpoint URL", lambda d: text_of(d, "shared-url"))


def sdk(url: str):
    """boto3 on the shared endpoint, without retries: each throttled request is seen once."""
    return boto3.client(
        "dynamodb",
        endpoint_url=url,
        region_name="us-east-1",
        aws_access_key_id="AKIDEXAMPLE",
        aws_secret_access_key="e2e-secret",
        config=Config(retries={"total_max_attempts": 1, "mode": "standard"}),
    )


def reload_table_list(driver) -> None:
    """Folds the embedded connection and opens it again: its table list is read anew."""
    toggle = css(driver, '[data-testid="connection-embedded"] button.connection-name')
    click(driver, toggle, "the embedded connection's name")
    wait_for(driver, "the embedded connection to fold", lambda d: toggle.get_attribute("aria-expanded") == "false")
    click(driver, toggle, "the embedded connection's name")
    present(driver, f'[data-testid="open-table-{TABLE}"]', f"{TABLE} in the sidebar")


def test_throttling_switched_on_in_settings_counts_the_throttled_writes(window):
    client = sdk(share_engine(window))
    settings_file = pathlib.Path(os.environ["DYNOTABLE_DATA_DIR"]) / "embedded" / "simulations.json"
    try:
        client.create_table(
            TableName=TABLE,
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
        )
        reload_table_list(window)
        view = open_view(window, "settings", TABLE)
        panel = wait_for(window, "the simulations section", lambda d: view.find_elements(By.CSS_SELECTOR, '[data-testid="simulations"]'))[0]
        assert text_of(window, "sim-throttled") == "0 requests"
        toggle = css(panel, '[data-testid="sim-enforce-capacity"]')
        assert not toggle.is_selected()
        click(window, toggle, "Enforce capacity")
        wait_for(window, "throttling to be on", lambda d: css(panel, '[data-testid="sim-enforce-capacity"]').is_selected())

        # One write unit a second banks 300 (rule B.19.2): batches of 25 one-unit puts use them,
        # then BatchWriteItem fails with ProvisionedThroughputExceededException.
        throttled = 0
        for batch in range(40):
            items = [{"PutRequest": {"Item": {"pk": {"S": f"k{batch}-{n}"}}}} for n in range(25)]
            try:
                client.batch_write_item(RequestItems={TABLE: items})
            except ClientError as err:
                assert err.response["Error"]["Code"] == "ProvisionedThroughputExceededException", err.response
                throttled += 1
                if throttled == 3:
                    break
        assert throttled == 3, f"only {throttled} of 40 batches were throttled"

        wait_for(window, "the throttled count to reach 3", lambda d: text_of(d, "sim-throttled") == "3 requests")
        screenshots_light_and_dark(window, "simulations-throttled")

        # Off again: the count stays, the next write is served.
        click(window, css(panel, '[data-testid="sim-enforce-capacity"]'), "Enforce capacity")
        wait_for(window, "throttling to be off", lambda d: not css(panel, '[data-testid="sim-enforce-capacity"]').is_selected())
        client.put_item(TableName=TABLE, Item={"pk": {"S": "after"}})
        assert text_of(window, "sim-throttled") == "3 requests"
    finally:
        try:
            client.delete_table(TableName=TABLE)
        except ClientError:
            pass
        # No file: the next window starts with both simulations off.
        settings_file.unlink(missing_ok=True)
