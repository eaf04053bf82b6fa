"""What a technician should check for each fault the MCU latches (PROTOCOL.md §4 faults), in English and Chinese.

Side N is the wall and lift plate in front of seat N. The service shows the hint with the fault code and stops
the table; after the repair the technician restarts the service, which clears the fault and repeats the step.
"""

from __future__ import annotations

from firmware_bridge.messages import FaultKind

_HINTS: dict[str, tuple[str, str]] = {
    FaultKind.JAM.name: (
        "the stacker of side {side} stopped: open the side {side} panel, take out the tile stuck or lying askew in "
        "its track, wipe the count sensor, then restart",
        "第{side}边码牌机构卡牌：打开该边侧板，取出卡住或歪斜的牌，擦净计数传感器后重新启动",
    ),
    FaultKind.MISCOUNT.name: (
        "the wall of side {side} came out with the wrong number of tiles: a tile is missing or foreign; count the "
        "set, check the floor of the machine and the count sensor of side {side}",
        "第{side}边牌墙张数不对：缺牌或混入别的牌；清点整副牌，检查机内底部和该边计数传感器",
    ),
    FaultKind.TRAVEL_TIMEOUT.name: (
        "the lift plate of side {side} did not reach its switch: look for a tile under the plate and check the "
        "limit switch and its wire",
        "第{side}边升降台未到位：检查台下是否有牌，检查限位开关及其接线",
    ),
    FaultKind.OVERCURRENT.name: (
        "a motor drew too much current: something blocks the mechanism; look for a foreign object on the disc",
        "电机过流：机构被卡住，检查转盘上是否有异物",
    ),
    FaultKind.MCU_RESET.name: (
        "the table's board restarted (power dip or watchdog): check the power supply and its connector",
        "主控板重启（电压跌落或看门狗）：检查电源及接头",
    ),
    FaultKind.HOST_SILENT.name: (
        "the board heard nothing from the controller and stopped the motors: check the serial cable",
        "主控板收不到控制器信号而停机：检查串口线",
    ),
    FaultKind.EMERGENCY_STOP.name: (
        "the table was stopped on purpose (stop button or lid): close the lid and keep hands out of the mechanism",
        "紧急停机（急停按钮或盖板）：盖好盖板，手勿伸入机构",
    ),
}


def hint(code: str, chinese: bool = False) -> str:
    """The hint for a fault code such as ``JAM/STACKER/side2``."""
    name, *rest = code.split("/")
    side = next((part.removeprefix("side") for part in rest if part.startswith("side")), "?")
    texts = _HINTS.get(name)
    if texts is None:
        texts = (f"unknown fault {code}: see the table's service manual", f"未知故障 {code}：见维修手册")
    return texts[chinese].format(side=side)
